# The Azul bot: python -m bot with the engine, the renderer, fonts and locale data; the database lives on /data.
# The build stage installs the locked dependencies (requirements.lock: exact versions, every file checked by its
# hash, so a new Pillow cannot change the pictures; the build backend too) and the bot, built by that locked backend
# (--no-build-isolation), into a virtual environment; the final stage copies
# only that environment, drops the installers nothing at run time needs, and runs as a numeric user without root.
# Its bytecode is compiled at build time, checked by hash rather than file times: the runtime user cannot write
# __pycache__, so without it every start compiles the bot's sources again (about three times the start-up's CPU).
# So are the methods @dataclass writes for each class (bot/infra/dataclass_cache.py): a sixth of a start otherwise;
# -P: the installed bot's, not the sources' in this folder, so the file lands in the copied environment.
# TLS certificates are looked up one by one in /etc/ssl/certs (by the hash links the base's ca-certificates keeps
# there) instead of reading the whole bundle into every TLS context: aiohttp makes two contexts as it is imported, and
# OpenSSL 3 takes about 50 ms of CPU to parse the bundle's 140 certificates for each: 100 ms of every start.
# Connections are verified as before: a certificate no system authority signed is refused (tests/test_docker.py).
#
# The base is pinned by digest (the tag says which Python it is): a rebuild gets the same system, and a new base is
# a reviewed change of this line. To move to a newer one: `docker buildx imagetools inspect python:3.11-slim-bookworm`
# and copy its "Digest:" here (both stages).

FROM python:3.11.13-slim-bookworm@sha256:86adf8dbadc3d6e82ee5dd2c74bec2e1c2467cdad47886280501df722372d2e1 AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/azul
WORKDIR /src
COPY requirements.lock ./
RUN /opt/azul/bin/pip install --require-hashes -r requirements.lock
COPY pyproject.toml README.md LICENSE ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY data ./data
RUN /opt/azul/bin/pip install --no-deps --no-build-isolation . \
    && /opt/azul/bin/pip check \
    && /opt/azul/bin/python -m pip uninstall --yes pip setuptools \
    && /opt/azul/bin/python -m compileall -q -j 0 --invalidation-mode unchecked-hash /opt/azul/lib \
    && /opt/azul/bin/python -P -m bot precompile

FROM python:3.11.13-slim-bookworm@sha256:86adf8dbadc3d6e82ee5dd2c74bec2e1c2467cdad47886280501df722372d2e1
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/azul/bin:$PATH \
    AZUL_DB=/data/azul.sqlite3 \
    SSL_CERT_FILE=/dev/null \
    SSL_CERT_DIR=/etc/ssl/certs
# sqlite3: to salvage a damaged database file (README, "Backups"). Then pip, setuptools and wheel go: the bot never
# installs anything at run time, and they are 25 MB an attacker could use. The base image deletes every .pyc of the
# standard library, so it is compiled here as the bot is: else each start compiles the 160 standard modules it
# imports (asyncio, email, json, logging, ...), more CPU than the whole start-up with them compiled.
RUN apt-get update \
    && apt-get install --yes --no-install-recommends sqlite3 \
    && rm -rf /var/lib/apt/lists/* \
    && python -m pip uninstall --yes pip setuptools wheel \
    && rm -rf /usr/local/lib/python3.11/ensurepip /usr/local/bin/pip* \
    && python -m compileall -q -j 0 --invalidation-mode unchecked-hash /usr/local/lib/python3.11
COPY --from=build /opt/azul /opt/azul
RUN groupadd --gid 10001 azul \
    && useradd --create-home --uid 10001 --gid 10001 azul \
    && mkdir -p /data \
    && chown 10001:10001 /data \
    && chmod 0700 /data
USER 10001:10001
WORKDIR /home/azul
VOLUME ["/data"]
# The connected bot rewrites /data/azul.sqlite3.heartbeat every 30 s; `health` fails when it is older than 90 s.
HEALTHCHECK --interval=30s --timeout=10s --start-period=90s --retries=3 CMD ["python", "-m", "bot", "health"]
CMD ["azul-bot"]
