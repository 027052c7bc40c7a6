#!/usr/bin/env bash

#SBATCH -J dgn-workers
#SBATCH -p gpu
#SBATCH -A project42
#SBATCH -n 1
#SBATCH --cpus-per-task=32
#SBATCH --mem=240G
#SBATCH -t 04:00:00
#SBATCH --gres=gpu:4
export UCX_TLS=rc,cuda_copy,cuda_ipc,tcp
/opt/dgn/bin/python -m dask_cuda.cli ucx://scheduler.example:8786 --name dummy-name --nthreads 8 --memory-limit 60.00GiB --death-timeout 60 --interface ib0 --protocol ucx
