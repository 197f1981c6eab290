#!/usr/bin/env bash
# Submits a sharded replay to Slurm: SHARDS replay tasks, then REGIONS merge tasks once all
# succeeded, then the final merge. Usage:
#   CAPTURE=/shared/cap WORKDIR=/shared/work/job1 OUTPUT=/shared/out/cloud.ply SHARDS=64 REGIONS=8 \
#     REPLAY_ARGS="--voxel-size 0.01" bash Distributed/slurm/submit.sh
set -euo pipefail
: "${CAPTURE:?}" "${WORKDIR:?}" "${OUTPUT:?}" "${SHARDS:?}" "${REGIONS:?}"
here=$(cd "$(dirname "$0")" && pwd)
export CAPTURE WORKDIR OUTPUT SHARDS REGIONS REPLAY_ARGS="${REPLAY_ARGS:-}" OUTPUT_ARGS="${OUTPUT_ARGS:-}"
map=$(STAGE=replay sbatch --parsable --export=ALL --array=0-$((SHARDS - 1)) "$here/pointpaint.sbatch")
reduce=$(STAGE=merge sbatch --parsable --export=ALL --dependency=afterok:"$map" --array=0-$((REGIONS - 1)) "$here/pointpaint.sbatch")
final=$(STAGE=final sbatch --parsable --export=ALL --dependency=afterok:"$reduce" "$here/pointpaint.sbatch")
echo "submitted: replay $map, merge $reduce, final $final"
