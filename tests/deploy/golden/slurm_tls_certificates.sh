#!/usr/bin/env bash

#SBATCH -J dgn-workers
#SBATCH -n 1
#SBATCH --cpus-per-task=4
#SBATCH --mem=32G
#SBATCH -t 01:00:00
#SBATCH --gres=gpu:1
source /opt/dgn/bin/activate
/opt/dgn/bin/python -m dask_cuda.cli tls://scheduler.example:8786 --name dummy-name --nthreads 4 --memory-limit 32.00GiB --death-timeout 60 --protocol tls --tls-ca-file /etc/dgn/tls/ca.pem --tls-cert /etc/dgn/tls/dgn.pem --tls-key /etc/dgn/tls/dgn.key
