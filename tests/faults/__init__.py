"""Faults (issue 21, item 3): Redis stopped, a client timeout after the commit, a gunicorn worker
killed mid-request, PostgreSQL restarted while tables record. docs/reliability.md, "Faults"."""
