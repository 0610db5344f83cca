# The Azul bot: python -m bot with the engine, the renderer, fonts and locale data; the database lives on /data.
# The build stage installs the locked dependencies (requirements.lock: exact versions, every file checked by its
# hash, so a new Pillow cannot change the pictures) and the bot into a virtual environment; the final stage copies
# only that environment and runs as a user without root.

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/azul
WORKDIR /src
COPY requirements.lock ./
RUN /opt/azul/bin/pip install --require-hashes -r requirements.lock
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY data ./data
RUN /opt/azul/bin/pip install --no-deps . \
    && /opt/azul/bin/pip check

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/azul/bin:$PATH \
    AZUL_DB=/data/azul.sqlite3
COPY --from=build /opt/azul /opt/azul
RUN useradd --create-home --uid 10001 azul \
    && mkdir -p /data \
    && chown azul:azul /data
USER azul
WORKDIR /home/azul
VOLUME ["/data"]
# The connected bot rewrites /data/azul.sqlite3.heartbeat every 30 s; `health` fails when it is older than 90 s.
HEALTHCHECK --interval=30s --timeout=10s --start-period=90s --retries=3 CMD ["python", "-m", "bot", "health"]
CMD ["azul-bot"]
