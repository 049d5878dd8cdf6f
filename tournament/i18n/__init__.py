"""Words that the pages and the print packs share (Flask-Babel, German and English):
:mod:`words` and :mod:`public_words`. Neither the web package nor the print packs own
them, so tournament/printing/ reads them without importing tournament/web/.
"""
