# Hugging Face Docker Space (the Streamlit SDK is deprecated there): serves the embedded demo.
# It runs the same artefact tests/test_wheel.py installs: the wheel built from this repository
# (app.py, pages/, queries/ and the demo inside it), installed with the exact pins of
# requirements.txt as constraints. No checkout is copied into the image that serves.
FROM python:3.11-slim AS wheel
WORKDIR /src
COPY . .
# The build backend at the versions requirements-dev.txt pins (the ones the test builds with).
RUN pip install --no-cache-dir $(grep -hE '^(hatchling|pathspec|trove-classifiers|pluggy|packaging)==' \
        requirements-dev.txt requirements.txt) \
    && pip wheel --no-cache-dir --no-deps --no-build-isolation --wheel-dir /dist .

FROM python:3.11-slim
RUN useradd -m -u 1000 user
ENV HOME=/home/user PATH=/home/user/.local/bin:$PATH JUDGESCOPE_CACHE=/home/user/.cache/judgescope \
    PYTHONUNBUFFERED=1
COPY requirements.txt /tmp/requirements.txt
COPY --from=wheel /dist/ /tmp/dist/
# [importers]: zstandard, for Inspect's .eval logs (pinned in requirements.txt).
RUN pip install --no-cache-dir -c /tmp/requirements.txt "$(ls /tmp/dist/judgescope-*.whl)[importers]" \
    && rm -rf /tmp/dist
USER user
WORKDIR /home/user
EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).status != 200)"
# The active manifest: JUDGESCOPE_SOURCES when the Space sets it, else the embedded demo.
CMD ["python", "-m", "judgescope.web.serve", "--server.address=0.0.0.0", "--server.port=8501", "--server.headless=true"]
