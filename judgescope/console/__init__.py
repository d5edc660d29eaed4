"""The read-only SQL console: its rules and result cache, and the bounded child process each
checked SELECT runs in, on a connection of its own."""
