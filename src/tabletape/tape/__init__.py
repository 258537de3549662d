"""The log file and nothing about any game: envelope and core events, codec, reader, writer."""
