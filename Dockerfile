# nbcritic as a container image (issue 23; docs/scale-out.md). Two stages on one base image:
# the first builds a virtualenv with pip, the second copies only that venv onto a clean base,
# runs as an unprivileged user and answers a healthcheck. No compiler is needed (every
# dependency ships wheels) and none is in either stage.
#
#   docker build -t nbcritic .                                  # the official Python image
#   docker build --build-arg BASE=debian-bookworm-python -t nbcritic .   # any Debian/Python 3.11
#   docker build --build-arg EXTRAS=scale,analysis -t nbcritic .  # numpy, pandas, sklearn, ...
#   docker run -e NBCRITIC_TOKEN=... -p 8765:8765 -v nbcritic-data:/data nbcritic
ARG BASE=python:3.11-slim-bookworm

FROM ${BASE} AS build
ARG EXTRAS=scale
# optional: pip's CA bundle and index, for a build behind a TLS-inspecting proxy or a mirror
ARG PIP_CERT=""
ARG PIP_INDEX_URL=""
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
RUN python3 -m venv /opt/nbcritic
WORKDIR /src
COPY pyproject.toml requirements.lock README.md ./
COPY app app
COPY services services
COPY critics critics
RUN [ -n "$PIP_CERT" ] || unset PIP_CERT; [ -n "$PIP_INDEX_URL" ] || unset PIP_INDEX_URL; \
    /opt/nbcritic/bin/pip install -q -c requirements.lock ".[${EXTRAS}]"

FROM ${BASE}
COPY --from=build /opt/nbcritic /opt/nbcritic
RUN groupadd --system nbcritic \
    && useradd --system --gid nbcritic --home-dir /data --no-create-home nbcritic \
    && mkdir -p /data && chown nbcritic:nbcritic /data
USER nbcritic
WORKDIR /data
ENV PATH=/opt/nbcritic/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    NBCRITIC_DATA_DIR=/data \
    NBCRITIC_HOST=0.0.0.0 \
    NBCRITIC_PORT=8765
VOLUME ["/data"]
EXPOSE 8765
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python3", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/health' % os.environ.get('NBCRITIC_PORT', '8765'), timeout=4)"]
CMD ["nbcritic", "serve"]
