"""The CPU each side of a benchmark used (client, app server, PostgreSQL, Redis), read from /proc,
pg_stat_activity and Redis's INFO: bench/live_games.py reads it around each phase."""

from __future__ import annotations

import os
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def _proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used, from /proc; 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def _group_pids(pgid: int) -> list[int]:
    """The processes of one process group (gunicorn's master and workers)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:
            pids.append(int(stat.parent.name))
    return pids


class CpuMeter:
    """CPU seconds used by each side of the benchmark, read before and after each phase.

    client: this process (the client threads); app: gunicorn's process group; database: the
    PostgreSQL backends connected to the bench database (the workers' connections); cache: the Redis
    server, from its INFO (with REDIS_URL). Whatever else runs on the machine is in none of them.
    """

    def __init__(self, server_pgid: int, *, server: str, database: str) -> None:
        self.server_pgid = server_pgid
        self.server = server  # PostgreSQL's URL without a database ("postgres://...:5432")
        self.database = database
        self.redis = None
        if os.environ.get("REDIS_URL"):
            import redis

            self.redis = redis.Redis.from_url(os.environ["REDIS_URL"])

    def read(self) -> dict[str, float]:
        """The CPU seconds of each side so far."""
        import psycopg

        with psycopg.connect(f"{self.server}/postgres", autocommit=True) as conn:
            backends = [
                pid
                for (pid,) in conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database]
                )
            ]
        sides = {
            "client": time.process_time(),
            "app": sum(_proc_cpu(pid) for pid in _group_pids(self.server_pgid)),
            "database": sum(_proc_cpu(pid) for pid in backends),
            "cache": 0.0,
        }
        if self.redis is not None:
            info = self.redis.info("cpu")
            sides["cache"] = float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
        return sides
