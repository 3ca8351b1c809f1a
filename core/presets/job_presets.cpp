#include "core/presets/job_presets.h"

namespace zp {

namespace {

// What every job resets: the long-context parts off, every weight trained in the training dtype,
// nothing frozen; bf16 with AdamW, the optimizer of every recipe below.
void reset_training(Scenario& s) {
    Training& t = s.training;
    t.precision = Precision::Bf16;
    t.optimizer = Optimizer::AdamW;
    t.tiled_mlp = t.cpu_checkpointing = t.expandable_segments = false;
    t.loss_kernel = LossKernel::Full;
    t.optimizer_storage = OptimizerStorage::Standard;
    t.kv_cache_in_training = t.outputs_kept = false;
    t.logit_metrics = 0;
    t.flash_attention = true;
    t.micro_batch = 1;
    t.auto_micro_batch = true;
    t.automatic_batch_sequences = Training{}.automatic_batch_sequences;
    t.checkpointing = Checkpointing::None;
    t.auto_checkpointing = true;
    s.finetune = FineTune{};
    s.parallel.auto_ulysses = false;
}

// LoRA as the QLoRA paper trains it, in 16 and in 4 bits alike: r 64, alpha 16, adapters on every
// linear layer of the blocks ("LoRA on all linear transformer block layers are required to match
// full finetuning performance", Dettmers et al. arXiv 2305.14314 Sec. 4 and Appendix B.2).
void use_paper_lora(FineTune& ft) {
    ft.lora_rank = 64;
    ft.lora_alpha = 16;
    ft.targets = LoraTargets::AllLinear;
}

}  // namespace

void use_alst(Training& t) {
    t.tiled_mlp = t.cpu_checkpointing = t.expandable_segments = t.flash_attention = true;
    t.loss_kernel = LossKernel::Chunked;
    t.checkpointing = Checkpointing::Full;
    t.auto_checkpointing = false;
}

Job job_shown(const Scenario& s) {
    const FineTuneMethod method = s.finetune.method;
    const FineTuneMethod of_job = s.job == Job::Lora    ? FineTuneMethod::Lora
                                  : s.job == Job::Qlora ? FineTuneMethod::Qlora
                                                        : FineTuneMethod::Full;
    if (s.job == Job::Custom || method == of_job) return s.job;
    if (method == FineTuneMethod::Lora) return Job::Lora;
    if (method == FineTuneMethod::Qlora) return Job::Qlora;
    return Job::Custom;
}

Scenario with_job(const Scenario& s, Job j) {
    Scenario out = s;
    out.job = j;
    if (j == Job::Custom) return out;
    reset_training(out);
    Training& t = out.training;
    switch (j) {
    case Job::PreTraining:
        // Llama 2's pre-training: 4096-token context, 4M tokens a step (Touvron et al. arXiv 2307.09288 Sec. 2.2).
        t.seq_len = 4096;
        t.global_batch = 1024;
        out.assumptions.token_budget = kPreTrainingTokenBudget;
        break;
    case Job::FullFineTune:
        // Llama 2's supervised fine-tuning: batch 64 of 4096-token sequences (arXiv 2307.09288 Sec. 3.1),
        // as the automatic global batch (0: 64, raised to a multiple of micro batch x data-parallel
        // ranks: effective_global_batch), so 3, 5, 6 or 7 GPUs are planned, not refused by the batch rule.
        t.seq_len = 4096;
        t.global_batch = 0;
        out.assumptions.token_budget = kFineTuneTokenBudget;
        break;
    case Job::Lora:
        t.seq_len = 4096;
        t.global_batch = 0;
        out.assumptions.token_budget = kFineTuneTokenBudget;
        out.finetune.method = FineTuneMethod::Lora;
        use_paper_lora(out.finetune);
        break;
    case Job::Qlora:
        // QLoRA: NF4 with double quantization, gradient checkpointing and paged AdamW (arXiv
        // 2305.14314 Sec. 3 "Paged Optimizers"; artidoro/qlora qlora.py optim default
        // 'paged_adamw_32bit'; PEFT's prepare_model_for_kbit_training turns checkpointing on by default).
        t.seq_len = 4096;
        t.global_batch = 0;
        out.assumptions.token_budget = kFineTuneTokenBudget;
        t.checkpointing = Checkpointing::Full;
        t.auto_checkpointing = false;
        t.optimizer_storage = OptimizerStorage::Paged;
        out.finetune.method = FineTuneMethod::Qlora;
        out.finetune.base_precision = BasePrecision::Nf4;
        out.finetune.double_quant = true;
        use_paper_lora(out.finetune);
        break;
    case Job::LongContext:
        // ALST's runs: one sequence per micro batch, every part on, Ulysses over as many GPUs as the
        // recommender finds (ArcticTraining projects/sequence-parallelism run-*.yml); 128K tokens,
        // the length the Hugging Face Ulysses blog's SP=4 table ends at, as the starting target.
        use_alst(t);
        out.fsdp.engine = Engine::DeepSpeed;  // ALST is DeepSpeed's (Ulysses has no FSDP counterpart here)
        out.fsdp.auto_engine = false;
        t.seq_len = 131072;
        t.global_batch = 0;
        t.automatic_batch_sequences = 1;  // one sequence per data-parallel rank a step (Training)
        t.auto_micro_batch = false;
        out.parallel.auto_ulysses = true;
        // ALST's DeepSpeed block: ZeRO-3 with the optimizer and the parameters on the CPU
        // (ArcticTraining projects/sequence-parallelism run-*.yml; the HF Ulysses blog: "DeepSpeed
        // ZeRO-3, CPU optimizer offloading"), the setup `estimate` plans; `recommend` searches them.
        out.zero.stage = 3;
        out.zero.offload_optimizer = OffloadDevice::Cpu;
        out.zero.offload_param = OffloadDevice::Cpu;
        break;
    case Job::Custom: break;
    }
    return out;
}

}  // namespace zp
