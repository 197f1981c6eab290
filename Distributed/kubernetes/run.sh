#!/usr/bin/env bash
# Runs the three stages in order: each Job starts once the previous one has completed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for stage in 1-replay:pointpaint-replay 2-merge:pointpaint-merge 3-final:pointpaint-final; do
  kubectl apply -f "$here/${stage%%:*}.yaml"
  kubectl wait --for=condition=complete --timeout=24h "job/${stage##*:}"
done
