#!/usr/bin/env bash

#SBATCH -J dgn-workers
#SBATCH -n 1
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH -t 01:00:00

/opt/dgn/bin/python -m distributed.cli.dask_worker tcp://scheduler.example:8786 --name dummy-name --nthreads 2 --memory-limit 4.00GiB --nanny --death-timeout 60 --protocol tcp
