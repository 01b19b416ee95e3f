#!/bin/sh
# Exact availability of one system split over a Slurm job array: task I of
# 1..N runs shard I/N and writes its partial result next to the input; a
# last job, started when every task has succeeded, merges them.
#
#   sbatch deploy/slurm-array.sh system.json          # N = 8 shards
#   SHARDS=32 sbatch --array=1-32 deploy/slurm-array.sh system.json
#
# The array must run 1..N (SLURM_ARRAY_TASK_ID is the shard). A task that
# fails or is preempted resumes from its checkpoint when resubmitted:
#   sbatch --array=5 deploy/slurm-array.sh system.json
#
#SBATCH --job-name=coterie-availability
#SBATCH --array=1-8
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=24:00:00
#SBATCH --output=coterie-%A_%a.log
set -eu

input=${1:?usage: sbatch slurm-array.sh SYSTEM.json}
shards=${SHARDS:-8}
dir=$(dirname "$input")
i=$SLURM_ARRAY_TASK_ID

coterie availability "$input" --shard auto --shards "$shards" --exact-time 0 \
	--checkpoint "$dir/checkpoint-$i.json" >"$dir/part-$i.json.tmp"
mv "$dir/part-$i.json.tmp" "$dir/part-$i.json"

# The first task queues the merge, to run once the whole array has succeeded.
if [ "$i" -eq 1 ]; then
	sbatch --dependency="afterok:$SLURM_ARRAY_JOB_ID" --job-name=coterie-merge \
		--output="$dir/coterie-merge.log" \
		--wrap="coterie merge $dir/part-*.json --json >$dir/availability.json"
fi
