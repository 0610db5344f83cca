# The Azul bot: python -m bot with the engine, the renderer, fonts and locale data; the database lives on /data.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    AZUL_DB=/data/azul.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY data ./data
RUN pip install . \
    && useradd --create-home --uid 10001 azul \
    && mkdir -p /data \
    && chown azul:azul /data

USER azul
VOLUME ["/data"]
CMD ["azul-bot"]
