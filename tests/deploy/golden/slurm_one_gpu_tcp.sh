#!/usr/bin/env bash

#SBATCH -J dgn-workers
#SBATCH -n 1
#SBATCH --cpus-per-task=4
#SBATCH --mem=32G
#SBATCH -t 01:00:00
#SBATCH --gres=gpu:1

/opt/dgn/bin/python -m dask_cuda.cli tcp://scheduler.example:8786 --name dummy-name --nthreads 4 --memory-limit 32.00GiB --death-timeout 60 --protocol tcp
