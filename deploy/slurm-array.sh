#!/bin/sh
# One coterie computation split over a Slurm job array. Each task runs its
# shard and writes its part into an output folder of this input and
# command; the array's first task queues a merge job that runs once the
# array has ended and puts the parts together when they are all there.
#
#   sbatch --array=0-7 deploy/slurm-array.sh system.json      # 8 shards
#   sbatch --array=1-4 deploy/slurm-array.sh system.json transversals --count
#
# Arguments: the input, then the command and its flags (default:
# availability --exact-time 0). The array may run 0..N-1 or 1..N; coterie
# reads the shard and N from the task's environment (--shard auto).
#
# Output folder (OUT, default: beside the input, named after it and the
# command, e.g. system-availability/): part-I.json and checkpoint-I.json
# per task, array (the array's task ids, written by its first task),
# merge-J.log per merge job, and result.json, the --json report exactly
# as the unsplit command prints it (each task's log is
# coterie-JOB_TASK.log where it was submitted). Two inputs, or two commands
# on one input, never share a folder; set OUT to keep two runs of one
# command with different flags apart.
#
# A task that failed, was cancelled or preempted: resubmit it alone, with
# the same arguments (and OUT), e.g. task 5:
#   sbatch --array=5 deploy/slurm-array.sh system.json
# It resumes from its checkpoint, reads the array's ids from OUT/array,
# and queues a merge of its own after it, so the result is merged even
# though the first merge found the part missing (see merge-J.log).
#
# A new split of the same computation (another array) needs a new
# folder: remove OUT or set another.
#
# COTERIE names the coterie binary (default: coterie on PATH).
#
#SBATCH --job-name=coterie
#SBATCH --array=0-7
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=24:00:00
#SBATCH --output=coterie-%A_%a.log
set -eu

input=${1:?usage: sbatch --array=0-7 slurm-array.sh SYSTEM [COMMAND [FLAGS...]]}
shift
if [ $# -eq 0 ]; then
	set -- availability --exact-time 0
fi
coterie=${COTERIE:-coterie}
: "${SLURM_ARRAY_TASK_ID:?run this script with sbatch --array=0-N-1 (or 1-N)}"
id=$SLURM_ARRAY_TASK_ID
lo=${SLURM_ARRAY_TASK_MIN:-$id}
hi=${SLURM_ARRAY_TASK_MAX:-$id}

# quote prints its argument quoted for sh.
quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

name=$(basename "$input")
name=${name%.*}
out=${OUT:-$(dirname "$input")/$name-$1}
mkdir -p "$out"

# The first whole array to run records its task ids; a task resubmitted
# alone (an array of one) reads them back to know its shard. noclobber
# makes the first writer win.
if [ ! -e "$out/array" ] && [ "${SLURM_ARRAY_TASK_COUNT:-1}" -eq $((hi - lo + 1)) ]; then
	(set -C && echo "$lo-$hi" >"$out/array") 2>/dev/null || true
fi
array=$(cat "$out/array" 2>/dev/null || echo "$lo-$hi")

# The array's first task queues the merge, to run when every task of this
# array has ended (afterany: a failed task must not keep it pending for
# ever). Queued before the work, so that it exists whatever happens to
# this task.
if [ "$id" -eq "$lo" ]; then
	parts=$(quote "$out")/part-*.json
	cmd="$(quote "$coterie") merge $parts --json -o $(quote "$out/result.json") ||
{ echo 'not merged: resubmit the missing shards alone (see the header of slurm-array.sh), which merges again' >&2; exit 1; }"
	sbatch --parsable --dependency="afterany:${SLURM_ARRAY_JOB_ID:?}" \
		--job-name=coterie-merge --output="$out/merge-%j.log" --wrap="$cmd" >/dev/null
fi

# The part is written under a temporary name and renamed, so that the
# merge never sees half a part.
"$coterie" "$@" "$input" --shard auto --shards "$array" \
	--checkpoint "$out/checkpoint-$id.json" >"$out/.part-$id.json.tmp"
mv "$out/.part-$id.json.tmp" "$out/part-$id.json"
