#pragma once
// What each job starts from (the window's "Job" row, `--job`): the training settings a run of that
// kind is usually launched with, each from the recipe cited in job_presets.cpp. The model, the
// cluster, the engine and the ZeRO setup are kept; the recommender still searches what is on auto.
#include "core/model/scenario.h"

namespace zp {

// `s` with job `j` and its starting values (Custom only records that no job is chosen).
Scenario with_job(const Scenario& s, Job j);

// The job `s` is planned as, for the window's Job row and the controls it shows first: s.job,
// unless the fine-tuning method was changed after the job was chosen (`--finetune qlora` on the
// default full fine-tune, the method box): then the job of that method (LoRA, QLoRA), or Custom
// when a LoRA or QLoRA job's method went back to full training.
Job job_shown(const Scenario& s);

// Arctic Long Sequence Training's parts, all on (`--alst on`, the long-context job): TiledMLP, the
// chunked (Liger) loss, checkpoints in host RAM with full recompute, flash attention and
// expandable_segments (ALST, arXiv 2506.13996; DeepSpeed runtime/sequence_parallel/ulysses_sp.py).
void use_alst(Training& t);

}  // namespace zp
