"""Print packs: PDFs of what a club pins on the wall or lays on the tables, rendered with
WeasyPrint from HTML (:mod:`~tournament.printing.packs`) and queued so that a big pack
renders in a worker, not in a web request (:mod:`~tournament.printing.queue`)."""
