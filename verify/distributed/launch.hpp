#pragma once
// What an MPI launcher tells a process through its environment, read before (or without) MPI: how many
// ranks it started and which one this is. mpirun of Open MPI sets OMPI_COMM_WORLD_SIZE/RANK; Slurm's
// srun and MPICH's launchers set PMI_SIZE/RANK.
namespace dpb::verify::ranks {

int launched_size();  // 1 when not started by a launcher
int launched_rank();  // 0 when not started by a launcher

}  // namespace dpb::verify::ranks
