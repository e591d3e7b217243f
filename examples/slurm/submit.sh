#!/usr/bin/env bash
# Submits a `hamle match` or `hamle ladder` to Slurm: SHARDS array tasks (match.sbatch or
# ladder.sbatch), then the merge (merge.sbatch or ladder-merge.sbatch), which starts once
# every task succeeded and is cancelled, not left pending forever, when one failed
# (--kill-on-invalid-dep=yes).
#
#   examples/slurm/submit.sh SHARDS MATCH_DIR BOT1 BOT2 [hamle match options…]
#   examples/slurm/submit.sh ladder SHARDS LADDER_DIR BOT… [hamle ladder options…]
#   examples/slurm/submit.sh 4 /shared/m1 hamle-go-200 hamle-go-1000 --pairs 200 --seed 7
#   examples/slurm/submit.sh ladder 3 /shared/l1 hamle-go-200 hamle-go-1000 gnugo-l10 --pairs 20
#
# The folder must be on a file system every node sees; the whole match or ladder ends up in
# DIR/merged, the tasks' output in DIR/shard-I.log and merge.log. HAMLE names the hamle
# binary (default: the one on PATH). Prints the two job ids. To rerun shard 3 after a
# failure, see match.sbatch or ladder.sbatch.
set -euo pipefail
run=match
if [ "${1:-}" = ladder ]; then
  run=ladder
  shift
fi
if [ $# -lt 4 ]; then
  echo "usage: $0 [ladder] SHARDS DIR BOT1 BOT2 [BOT…] [hamle match or ladder options…]" >&2
  exit 2
fi
here=$(dirname "$(readlink -f "$0")")
shards=$1
mkdir -p "$2"
dir=$(readlink -f "$2")
shift 2
export SHARDS=$shards HAMLE=${HAMLE:-$(command -v hamle)}
if [ $run = ladder ]; then
  export LADDER_DIR=$dir
  tasks=ladder.sbatch merge=ladder-merge.sbatch
else
  export MATCH_DIR=$dir
  tasks=match.sbatch merge=merge.sbatch
fi
array=$(sbatch --parsable --export=ALL --array="1-$shards" \
  --output="$dir/shard-%a.log" "$here/$tasks" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --export=ALL --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="$dir/merge.log" "$here/$merge")
merge=${merge%%;*}
echo "array job $array ($shards shards), merge job $merge: the $run ends in $dir/merged"
