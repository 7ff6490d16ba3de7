# The workbench in a container: the `queens` command, and the web page it serves.
#
#   docker build -t queens .
#   docker run --rm -p 7878:7878 queens                 # the page at http://localhost:7878/
#   docker run --rm queens count 14                     # any other command
#
# The build keeps to Cargo.lock. The image holds the binary and the Vulkan loader, so that a
# GPU the container is given (for example with the NVIDIA Container Toolkit) can count.

FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --locked --release -p queens-cli

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libvulkan1 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/target/release/queens /usr/local/bin/queens
USER nobody
EXPOSE 7878
ENTRYPOINT ["queens"]
# All interfaces inside the container; `-p 7878:7878` publishes the port on the host's.
CMD ["serve", "--addr", "0.0.0.0:7878"]
