#!/usr/bin/env bash
# Checks that a Dockerfile's runtime library list (the RUNTIME_LIBS between "# runtime-libs-begin" and
# "# runtime-libs-end") matches what the binary needs: every library `ldd BINARY` resolves, minus those every
# base image has (glibc, libstdc++, libgcc_s). Fails on a library missing from the list (the container would
# not start) or listed but not needed (dead weight).
# Usage: deploy/check_runtime_libs.sh [BINARY] [DOCKERFILE]     (defaults: build/bin/receipt deploy/Dockerfile.cuda)
set -euo pipefail
BINARY=${1:-build/bin/receipt}
DOCKERFILE=${2:-deploy/Dockerfile.cuda}
[ -x "$BINARY" ] || { echo "no binary at $BINARY" >&2; exit 2; }
[ -f "$DOCKERFILE" ] || { echo "no $DOCKERFILE" >&2; exit 2; }

# Provided by every glibc base image (debian:12-slim, nvidia/cuda:*-base-ubuntu*).
BASE_RE='^(linux-vdso\.so|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libstdc\+\+\.so|libgcc_s\.so)'

needed=$(ldd "$BINARY" | awk '$2 == "=>" { print $1 }' | grep -Ev "$BASE_RE" | sort -u)
if ldd "$BINARY" | grep -q "not found"; then
    echo "ldd cannot resolve some libraries of $BINARY:" >&2
    ldd "$BINARY" | grep "not found" >&2
    exit 1
fi
listed=$(sed -n '/# runtime-libs-begin/,/# runtime-libs-end/p' "$DOCKERFILE" \
    | sed -e 's/#.*//' -e 's/ARG RUNTIME_LIBS=//' -e 's/[\\"]//g' | tr ' ' '\n' | grep -v '^$' | sort -u)

missing=$(comm -23 <(echo "$needed") <(echo "$listed"))
extra=$(comm -13 <(echo "$needed") <(echo "$listed"))
status=0
if [ -n "$missing" ]; then
    echo "needed by $BINARY but not copied by $DOCKERFILE:" >&2
    echo "$missing" | sed 's/^/  /' >&2
    status=1
fi
if [ -n "$extra" ]; then
    echo "copied by $DOCKERFILE but not needed by $BINARY:" >&2
    echo "$extra" | sed 's/^/  /' >&2
    status=1
fi
[ $status -eq 0 ] && echo "runtime libraries of $DOCKERFILE match ldd $BINARY ($(echo "$needed" | wc -l) libraries)"
exit $status
