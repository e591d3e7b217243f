#!/usr/bin/env bash
# Submits a `hamle match` to Slurm: SHARDS array tasks (match.sbatch), then the merge
# (merge.sbatch), which starts once every task succeeded and is cancelled, not left
# pending forever, when one failed (--kill-on-invalid-dep=yes).
#
#   examples/slurm/submit.sh SHARDS MATCH_DIR BOT1 BOT2 [hamle match options…]
#   examples/slurm/submit.sh 4 /shared/m1 hamle-go-200 hamle-go-1000 --pairs 200 --seed 7
#
# MATCH_DIR must be on a file system every node sees; the whole match ends up in
# MATCH_DIR/merged, the tasks' output in MATCH_DIR/shard-I.log and merge.log. HAMLE names
# the hamle binary (default: the one on PATH). Prints the two job ids. To rerun shard 3
# after a failure, see match.sbatch.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 SHARDS MATCH_DIR BOT1 BOT2 [hamle match options…]" >&2
  exit 2
fi
here=$(dirname "$(readlink -f "$0")")
shards=$1
mkdir -p "$2"
dir=$(readlink -f "$2")
shift 2
export SHARDS=$shards MATCH_DIR=$dir HAMLE=${HAMLE:-$(command -v hamle)}
array=$(sbatch --parsable --export=ALL --array="1-$shards" \
  --output="$dir/shard-%a.log" "$here/match.sbatch" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --export=ALL --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="$dir/merge.log" "$here/merge.sbatch")
merge=${merge%%;*}
echo "array job $array ($shards shards), merge job $merge: the match ends in $dir/merged"
