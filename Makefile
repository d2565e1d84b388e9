# The two set-up commands of the README:  `make demo`  and  `make test`.
# Both create ./.venv (Python >= 3.11), install pagetree with its extras, and install
# tesseract-ocr through apt when running as root (otherwise they print the command to run).
PY      ?= python3
VENV    ?= .venv
BIN     := $(VENV)/bin
STORE   ?= index
SAMPLES ?= samples
export PREFECT_SERVER_ANALYTICS_ENABLED ?= false

.PHONY: setup system demo test bench goldens clean

system:
	@missing=""; \
	command -v tesseract >/dev/null 2>&1 || missing="$$missing tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-osd"; \
	if command -v tesseract >/dev/null 2>&1; then for l in eng deu osd; do \
	  tesseract --list-langs 2>/dev/null | grep -qx $$l || missing="$$missing tesseract-ocr-$$l"; done; fi; \
	$(PY) -c 'import ensurepip, venv' >/dev/null 2>&1 || missing="$$missing python3-venv"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing system packages:$$missing"; \
	    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing >/dev/null || exit 1; \
	  else \
	    echo "missing system packages; run:  sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi
	@$(PY) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "pagetree needs Python >= 3.11 (set PY=python3.11)")'

# Rebuilt when the build changes too (setup.py, the compiled .pyx modules), not only the dependencies.
$(BIN)/.installed: pyproject.toml setup.py $(wildcard parsers/*.pyx)
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -U pip
	$(BIN)/pip install -q -e ".[test,serve,dask]"
	@touch $@

setup: system $(BIN)/.installed

demo: setup
	$(BIN)/pagetree samples $(SAMPLES)
	$(BIN)/pagetree ingest $(SAMPLES) --store $(STORE)
	$(BIN)/pagetree tree manual --store $(STORE)
	$(BIN)/pagetree search "What does error code E42 mean?" --doc manual --store $(STORE)
	$(BIN)/pagetree tree quarterly-10q.htm --depth 2 --store $(STORE)
	$(BIN)/pagetree facts quarterly-10q.htm us-gaap:Revenues --store $(STORE)
	$(BIN)/pagetree tree quick-start.md --store $(STORE)

test: setup
	$(BIN)/python -m pytest -q

# The HTML filing peers the benchmarks compare against (edgartools, sec-parser; they pull pandas and more) stay
# out of the runtime and test install: no test needs them. `make bench` adds them.
bench: setup
	$(BIN)/pip install -q -e ".[bench]"
	# sec-parser pins lxml < 6: build the HTML reader's compiled walk again against the lxml now installed
	# (it is used only with the lxml it was built for; docs/html.md).
	$(BIN)/pip install -q "Cython>=3.0" "setuptools>=68" wheel
	$(BIN)/pip install -q --no-build-isolation --no-deps -e .
	$(BIN)/python benchmarks/structure.py

# Record every stage's output on the fixture documents after a stage version bump (parsers/stages.py).
goldens: setup
	$(BIN)/python -m tests.parsers.test_stage_goldens --write

clean:
	rm -rf $(VENV) $(STORE) $(SAMPLES) .pytest_cache
