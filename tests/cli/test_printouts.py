"""What the organiser prints and reads at the desk: tables that fit 100 columns, settings
in words, scores that explain themselves, brackets named as organisers name rounds,
tallies as the sheet shows them, and a manual draw that asks before breaking a rule."""

from __future__ import annotations

from tests.cli.helpers import create_cup, friday_match, state, stored, unsealed

LONG = ("Theresia Wieser-Obermüllner", "Maximilian Köchl-Hintertupfinger", "Hubert Wöss",
        "Christine Bäck-Oberhauser", "Friedrich Prückl von Hohenau", "Gerda Pichler",
        "Rudolf Tüchler-Schwarzenberger", "Anna Huber")  # fmt: skip


def test_standings_and_round_show_fit_100_columns(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "3", "--seed", "2")
    for n, name in enumerate(LONG * 2):
        cli("players", "add", name, "--club", f"SC {n}")
    cli("round", "start")
    for mid in state().rounds[0].matches[:-1]:
        cli("results", "enter", mid, "--forfeit", str(min(state().matches[mid].players)))
    cli("players", "withdraw", "16")
    shown = cli("round", "show").output.splitlines()
    assert max(map(len, shown)) <= 100
    assert "deals first:" in shown[1] and "won 2:0 by forfeit" in shown[2]
    # A result too long for its table's line goes on the next, and shortens no name.
    assert "T. Wieser-Obermüllner (1)" in shown[1] and shown[2].startswith(" " * 18 + "->")
    table = cli("standings").output.splitlines()
    assert max(map(len, table)) <= 100
    # Short tie-break headers, named under the table; rows as wide as the header.
    assert "Buchh" in table[1] and "Buchholz" not in table[1]
    assert any(line.startswith("columns: Buchh = Buchholz") for line in table)
    rows = table[2:18]
    assert len({len(r.rstrip()) for r in rows[:3]}) <= 2  # the H2H column may stay blank
    assert any("[withdrawn]" in r for r in rows)
    # Short names keep the full headers.
    cli("create", "Small", "--id", "small")
    for name in ("Anna", "Berti"):
        cli("players", "add", name)
    cli("round", "start")
    assert "Buchholz" in cli("standings").output.splitlines()[1]


def test_show_prints_the_settings_in_words(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Swiss", "--id", "s", "--option", "rounds=5")
    assert "format: Swiss, 5 rounds; best of 3 Bummerl" in cli("show").output
    create_cup(cli, "round_robin")
    out = cli("show", "-t", "cup").output
    assert "format: round robin; best of 1 Bummerl" in out and "{" not in out
    cli("create", "L", "--id", "l", "--format", "lives", "--option", "lives=3")
    out = cli("show", "-t", "l").output
    assert "format: lives (Preisschnapsen), a final of 2" in out and "{" not in out


def test_a_schneiderbummerl_score_says_why_it_looks_impossible(cli) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)  # best of 3: Bernd (1) v Franz (2)
    cli("results", "enter", "1.1", "--tally", "7 5 3 0 / 7 6")
    out = cli("results", "enter", "1.1", "--tally", "7 4 1 0 / 7").output
    assert "decided: Bernd (1) wins 3:0 Bummerl (a Schneiderbummerl counts 2, R19)" in out
    assert "won 3:0 (a Schneiderbummerl counts 2, R19)" in cli("round", "show").output
    shown = cli("players", "show", "1").output  # the player's own evening says it too
    assert "won 3:0 Bummerl (a Schneiderbummerl counts 2, R19), game points" in shown


def test_bracket_names_rounds_shows_seeds_and_previews_the_draw(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "single_elimination")
    for n in range(1, 17):
        cli("players", "add", f"Spieler {n}", "--rating", str(2000 - n))
    cli("players", "seed")
    before = len(stored())
    preview = unsealed(cli("bracket").output).splitlines()
    assert preview[0].startswith("Draw preview from today's seeding and check-ins")
    assert preview[1] == "Round of 16"
    assert preview[2].split()[:4] == ["R1-1", "[1]", "Spieler", "1"]
    assert [x for x in preview if not x.startswith(" ")][1:] == [
        "Round of 16", "Quarter-finals", "Semi-finals", "Final", "[N]: seed"
    ]  # fmt: skip
    assert len(stored()) == before  # a preview stores nothing
    assert "(Round of 16)" in cli("round", "start").output.splitlines()[0]
    assert cli("bracket").output.splitlines()[0] == "Round of 16"


def test_double_elimination_names_the_winners_and_losers_finals(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "double_elimination")
    for n in range(1, 9):
        cli("players", "add", f"P{n}")
    cli("round", "start")
    heads = [x for x in cli("bracket").output.splitlines() if not x.startswith(" ")]
    assert "Winners' final" in heads and "Winners' semi-finals" in heads
    assert "Losers' final" in heads and "Grand final" in heads


def test_formats_without_a_bracket_say_so(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "lives")
    out = cli("bracket", ok=False)
    assert out.exit_code == 1 and "the lives format has no bracket" in out.output
    assert "yet" not in out.output


def test_a_column_tally_is_shown_as_its_two_columns_without_a_made_up_order(cli) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)
    cli("results", "enter", "1.1", "--tally", "7 5 4 1 0 / 7 6 3")
    lines = cli("results", "show", "1.1").output.splitlines()
    bernd = next(x for x in lines if x.strip().startswith("Bernd (1)") and "7 5 4 1 0" in x)
    franz = next(x for x in lines if x.strip().startswith("Franz (2)") and "7 6 3" in x)
    assert bernd.rstrip().endswith("#1 +2, #2 +1, #3 +3, #6 +1")
    assert franz.rstrip().endswith("#4 +1, #5 +3")
    assert any("columns give no order between the players' hands" in x for x in lines)
    assert not any("hands: 1 Bernd" in x for x in lines)


def test_a_manual_draw_that_breaks_a_rule_asks_before_it_is_stored(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "1", "--seed", "1")
    for n in range(1, 10):
        cli("players", "add", f"S {n}")
    before = len(stored())
    declined = cli("round", "start", "--pair", "1-3,4-5,6-7", "--bye", "8", input="n\n", ok=False)
    assert declined.exit_code == 1
    assert "WARNING player_missing: not paired and no bye: 2, 9" in declined.output
    assert declined.output.rstrip().endswith("nothing stored")
    assert len(stored()) == before
    fine = cli("round", "start", "--pair", "1-2,3-4,5-6,7-8", "--bye", "9")  # breaks nothing
    assert "store this draw anyway?" not in fine.output
    cli("round", "cancel", "--why", "test")
    taken = cli("round", "start", "--pair", "1-3,4-5,6-7", "--bye", "8", input="y\n")
    assert "MANUAL PAIRING" in taken.output
    cli("round", "cancel", "--why", "test")
    cli("round", "start", "--pair", "1-3,4-5,6-7", "--bye", "8", "--yes")
    assert state().rounds[0].warnings


def test_a_name_that_fits_the_names_column_is_not_shortened(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup", "--best-of", "3", "--seed", "2")
    for name in ("Maximilian Köchl-Oberhuber", "Friedrich Prückl von Hohenau",
                 "Rudolf Tüchler-Schwarzenberger", "Christine Bäck",
                 "Theresia Wieser-Obermüllner", "Anna Huber"):  # fmt: skip
        cli("players", "add", name)
    shown = cli("round", "start").output.splitlines()
    assert max(map(len, shown)) <= 100
    # 30 characters, as wide as the column the longest names leave: shown whole.
    assert "  Maximilian Köchl-Oberhuber (1)  v  " in shown[1]
