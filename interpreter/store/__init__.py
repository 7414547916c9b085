"""The store: what is read from and written to files.

Belongs here: saved states (checked against the state format before they are trusted), the graph
codec of compiled games, the cache of loaded games in the user's cache folder, and the search path
that turns a ruleset's name into its file."""
