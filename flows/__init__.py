"""pagetree's Prefect flows (ingest, rebuild_stale, gc) and what runs them."""

from flows.prefect_compat import unjoined_heartbeats

unjoined_heartbeats()
