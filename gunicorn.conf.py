"""gunicorn reads this file from the working directory by default (the Dockerfile and compose
start it from the project root). Access log lines go through ``RedactingGunicornLogger``, so
players' private links never reach the log (see ``config.logging``)."""

logger_class = "config.logging.RedactingGunicornLogger"
accesslog = "-"
