#!/bin/sh
# A one-machine Slurm cluster for trying mnklab's job arrays: munge, slurmctld and slurmd
# from Debian's packages (slurm-wlm), this host the only compute node. Run as root. Safe to
# run again: it rewrites the config and restarts the daemons.
#
#   sudo scripts/slurm/setup-local.sh
#
# A real cluster already has all this; there, only sweep.sbatch and submit.sh are needed.
set -eu

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge
fi

host=$(hostname -s)
cpus=$(nproc)
# Slurm refuses a node that reports less memory than configured: leave it some room.
mem=$(awk '/MemTotal/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)

# munge: the key the package made (or a new one), and the daemon.
if [ ! -s /etc/munge/munge.key ]; then
    mungekey --create --force 2>/dev/null || dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
fi
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge
pkill -x munged 2>/dev/null || true
sleep 0.5
runuser -u munge -- /usr/sbin/munged
munge -n | unmunge >/dev/null

mkdir -p /etc/slurm /var/spool/slurmd /var/spool/slurmctld /var/log/slurm
cat > /etc/slurm/slurm.conf <<CONF
# Written by mnklab's scripts/slurm/setup-local.sh: one machine, all its cores.
ClusterName=mnklab-local
SlurmctldHost=$host
AuthType=auth/munge
SlurmUser=root
SlurmdUser=root
# No cgroups in containers: plain process tracking, no task confinement.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmdSpoolDir=/var/spool/slurmd
StateSaveLocation=/var/spool/slurmctld
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

pkill -x slurmctld 2>/dev/null || true
pkill -x slurmd 2>/dev/null || true
sleep 1
/usr/sbin/slurmctld -c
/usr/sbin/slurmd -c

# Wait for the node to come up idle.
i=0
until sinfo -h -N -o '%T' 2>/dev/null | grep -q idle; do
    i=$((i + 1))
    if [ $i -gt 60 ]; then
        echo "slurm did not come up; see /var/log/slurm/" >&2
        sinfo -N -l >&2 || true
        exit 1
    fi
    sleep 1
done
echo "slurm is up: node $host, $cpus CPUs, partition local"
sinfo
