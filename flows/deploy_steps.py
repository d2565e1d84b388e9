"""Deployment steps of prefect.yaml that Prefect does not ship in the form pagetree needs.

The pull step runs in the flow-run process a worker starts, before the flow is loaded from its entrypoint
(``flows/ingest.py:ingest``, relative to the working directory). Prefect's own ``set_working_directory``
takes a fixed folder, and a ``{{ $VAR }}`` placeholder in it has no default (an unset variable becomes an
empty path) and is filled in by ``prefect deploy`` already when the deploying shell has it. So one
prefect.yaml serves the image (code at /app) and a clone (code wherever it was cloned) with this step: the
folder is read when the run starts, from the worker's environment or the deployment's job variables.
"""

from __future__ import annotations

import os

APP_DIR_VARIABLE = "PAGETREE_APP_DIR"
IMAGE_APP_DIR = "/app"  # where infra/Dockerfile puts the code


def set_app_directory(default: str = IMAGE_APP_DIR, variable: str = APP_DIR_VARIABLE) -> dict[str, str]:
    """chdir to ``$PAGETREE_APP_DIR``, else ``default``; returns ``{"directory": ...}`` as Prefect's
    ``set_working_directory`` does, so later steps can use ``{{ <step id>.directory }}``."""
    given = os.environ.get(variable)
    directory = os.path.abspath(os.path.expanduser(given or default))
    if not os.path.isfile(os.path.join(directory, "flows", "ingest.py")):
        where = f"{variable}={given!r}" if given else f"{variable} is not set and the default {default!r}"
        raise FileNotFoundError(
            f"{where} is not a pagetree checkout (no flows/ingest.py there): start the worker with {variable} "
            f"set to the folder of the checkout (docs/operations.md, 'Deployments from a clone'), or run it "
            f"from the image built by infra/Dockerfile (code at {IMAGE_APP_DIR})")
    os.chdir(directory)
    return {"directory": directory}
