#!/usr/bin/env bash
# A Slurm job array of 16 workers, each analysing shard $SLURM_ARRAY_TASK_ID of 16 into its own
# store, then a merge job that runs when all of them succeeded:
#
#   workers=$(sbatch --parsable docs/cluster/slurm-array.sh /data/uploads /scratch/study)
#   sbatch --dependency=afterok:$workers --wrap \
#     "activetask batch merge --db /scratch/study/results.sqlite /scratch/study/shards/results-*.sqlite"
#
# A requeued or resubmitted task resumes from its store.
#SBATCH --job-name=activetask-batch
#SBATCH --array=0-15
#SBATCH --cpus-per-task=4
#SBATCH --mem=4G
#SBATCH --time=04:00:00
#SBATCH --requeue
set -euo pipefail
uploads=$1
out=$2
mkdir -p "$out/shards"
activetask batch "$uploads" \
  --db "$out/shards/results-${SLURM_ARRAY_TASK_ID}.sqlite" \
  --shard "${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT}" \
  --jobs "${SLURM_CPUS_PER_TASK:-4}"
