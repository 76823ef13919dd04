# relaylint on debian:bookworm-slim: the release tarball's binary and nothing else (it needs
# only glibc and libstdc++, which the image has). Build the tarball first, then the image:
#   Scripts/release.sh
#   docker build --build-arg VERSION=0.1.0 -t relaylint:0.1.0 .
#   docker run --rm -v "$PWD:/work" relaylint:0.1.0 check --events events.jsonl
FROM debian:bookworm-slim
ARG VERSION
ARG ARCH=x86_64
COPY out/relaylint-${VERSION}-linux-${ARCH}.tar.gz out/relaylint-${VERSION}-linux-${ARCH}.tar.gz.sha256 /tmp/
RUN cd /tmp \
    && sha256sum -c "relaylint-${VERSION}-linux-${ARCH}.tar.gz.sha256" \
    && tar -xzf "relaylint-${VERSION}-linux-${ARCH}.tar.gz" -C /opt \
    && ln -s "/opt/relaylint-${VERSION}-linux-${ARCH}/relaylint" /usr/local/bin/relaylint \
    && rm "relaylint-${VERSION}-linux-${ARCH}.tar.gz" "relaylint-${VERSION}-linux-${ARCH}.tar.gz.sha256"
WORKDIR /work
ENTRYPOINT ["relaylint"]
CMD ["--help"]
