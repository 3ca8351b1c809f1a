// core/diagnose/oom_diagnosis: one row per public out-of-memory report in tests/data/oom/ (each
// log's header cites its URL). A row states the moment the report's frames (or its request) name,
// the cause (capacity, device placement, fragmentation), the step timeline's term the request is,
// and, for a capacity failure, that the planner finds a change that fits the same GPUs: its peak
// below the card, the cluster the log's.
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/base/units.h"
#include "core/diagnose/log_setup.h"
#include "core/diagnose/oom_diagnosis.h"
#include "core/io/hf_config.h"
#include "core/io/oom_log.h"
#include "core/io/scenario_json.h"
#include "core/memory/memory_model.h"
#include "core/memory/step_timeline.h"
#include "core/model/enum_names.h"
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/presets/preset_table.h"
#include "test_data.h"
#include "test_util.h"

#include <algorithm>
#include "test_main.h"

using namespace zp;

namespace {

// A log that ran out of memory in the step's `phase`, asking for `tried_gib`.
OomLog in_step_oom(StepPhase phase, double tried_gib) {
    OomLog oom;
    oom.moment = OomMoment::InStep;
    oom.phase = phase;
    OomEvent event;
    event.tried_bytes = tried_gib * kBytesPerGiB;
    oom.events.push_back(event);
    return oom;
}

QString moment_name(OomMoment m, StepPhase phase) {
    switch (m) {
    case OomMoment::ModelLoad: return QStringLiteral("model_load");
    case OomMoment::CheckpointSave: return QStringLiteral("checkpoint_save");
    case OomMoment::Evaluation: return QStringLiteral("evaluation");
    case OomMoment::Unknown: return QStringLiteral("unknown");
    case OomMoment::InStep: break;
    }
    return QString::fromLatin1(to_string(phase));
}

QString cause_name(OomCause c) {
    switch (c) {
    case OomCause::Capacity: return QStringLiteral("capacity");
    case OomCause::DevicePlacement: return QStringLiteral("device placement");
    case OomCause::Fragmentation: return QStringLiteral("fragmentation");
    case OomCause::Evaluation: return QStringLiteral("evaluation");
    case OomCause::HostMemory: return QStringLiteral("host memory");
    case OomCause::OutsideAllocator: return QStringLiteral("outside the allocator");
    case OomCause::CardHadRoom: return QStringLiteral("card had room");
    case OomCause::TensorShape: return QStringLiteral("tensor shape");
    }
    return {};
}

// LLaMA-Factory#1158's run (Baichuan2-13B, ZeRO-2 on 4 GPUs): its log and the run the log
// describes, with the model's own config.
std::pair<OomLog, Scenario> baichuan_13b_zero2() {
    const std::string text = read_text_file(test_data_path("oom/llamafactory1158_baichuan2_13b_zero2.log"));
    OomLog oom = read_oom_log(text, "1158");
    Scenario s = setup_from_log(text, oom, "1158").scenario;
    s.model = import_hf_config(read_text_file(test_data_path("oom/baichuan2-13b-chat.llama-form.config.json")), "baichuan");
    s.zero.stage = 2;
    return {std::move(oom), std::move(s)};
}
}  // namespace

class TestOomReports : public QObject {
    Q_OBJECT
private slots:
    void reports_data() {
        QTest::addColumn<QString>("log");
        // What the report states beside its log, as `diagnose` takes it in options ("" / 0: the log's).
        QTest::addColumn<QString>("hf_config");
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("stage");
        QTest::addColumn<QString>("moment");
        QTest::addColumn<QString>("cause");
        QTest::addColumn<QString>("term");  // the start of the term's name; "" when none is named
        // DeepSpeed#237: inside deepspeed.initialize's initialize_optimizer_states, apex's
        // state['exp_avg'] = torch.zeros_like(p.data); the model is not stated ("less than 30B"):
        // the default model on the log's 31.72 GiB cards.
        QTest::newRow("DeepSpeed#237 ZeRO-2 Megatron GPT-2, start-up")
            << QStringLiteral("oom/deepspeed237_zero2_megatron.log") << QStringLiteral("") << QStringLiteral("") << 8 << 2
            << QStringLiteral("start-up") << QStringLiteral("capacity") << QStringLiteral("an optimizer moment");
        // LLaMA-Factory#7532: torch AdamW creates exp_avg_sq lazily in the first step; 48 GPUs at
        // ZeRO-3 (stated); the 236B MoE has no preset: DeepSeek-V2-Lite's shapes stand in.
        QTest::newRow("LLaMA-Factory#7532 236B ZeRO-3, torch AdamW's exp_avg_sq")
            << QStringLiteral("oom/llamafactory7532_zero3_torch_adamw.log") << QStringLiteral("") << QStringLiteral("deepseek-v2-lite")
            << 48 << 3 << QStringLiteral("optimizer step") << QStringLiteral("capacity") << QStringLiteral("an optimizer moment");
        // TRL#3172: seven other processes on GPU 0 while the model is moved there.
        QTest::newRow("TRL#3172 GRPO, seven processes on GPU 0")
            << QStringLiteral("oom/trl3172_grpo_seven_processes_gpu0.log") << QStringLiteral("") << QStringLiteral("qwen2-7b") << 8 << 3
            << QStringLiteral("model_load") << QStringLiteral("device placement") << QStringLiteral("");
        // Megatron-LM#92: the fp32 logits for the loss; the model is not stated (default model).
        QTest::newRow("Megatron-LM#92 large vocabulary, fp32 logits")
            << QStringLiteral("oom/megatron92_fp32_logits.log") << QStringLiteral("") << QStringLiteral("") << 8 << 3
            << QStringLiteral("loss") << QStringLiteral("capacity") << QStringLiteral("");
        // LLaMA-Factory#1158: 12.94 GiB = 4 B x 13.90B / 4 ranks, the fp32 master partition at
        // start-up; ZeRO-2 is the maintainer's reading of the run.
        QTest::newRow("LLaMA-Factory#1158 Baichuan2-13B ZeRO-2 on 4 GPUs, 12.94 GiB")
            << QStringLiteral("oom/llamafactory1158_baichuan2_13b_zero2.log")
            << QStringLiteral("oom/baichuan2-13b-chat.llama-form.config.json") << QStringLiteral("") << 0 << 2 << QStringLiteral("start-up")
            << QStringLiteral("capacity") << QStringLiteral("the fp32 master partition");
        // TRL#2776: torch.optim's _foreach_sqrt(exp_avg_sqs); no model, GPU count or stage stated:
        // Qwen2-7B on 8 of the log's 94.99 GiB GPUs without ZeRO (plain DDP) stands in.
        QTest::newRow("TRL#2776 GRPO, torch AdamW's _foreach_sqrt")
            << QStringLiteral("oom/trl2776_grpo_foreach_sqrt.log") << QStringLiteral("") << QStringLiteral("qwen2-7b") << 8 << 0
            << QStringLiteral("optimizer step") << QStringLiteral("capacity") << QStringLiteral("torch.optim's temporary");
        // MGFN#35: 2.30 GiB reserved but unallocated against a 1.70 GiB request.
        QTest::newRow("MGFN#35 reserved but unallocated")
            << QStringLiteral("oom/mgfn35_fragmentation.log") << QStringLiteral("") << QStringLiteral("") << 0 << -1
            << QStringLiteral("unknown") << QStringLiteral("fragmentation") << QStringLiteral("");
        // LLaMA-Factory#7781: rank 6's message, rank 1's traceback cut before its evaluation frames.
        QTest::newRow("LLaMA-Factory#7781 ranks interleaved")
            << QStringLiteral("oom/llamafactory7781_ranks_interleaved.log") << QStringLiteral("") << QStringLiteral("") << 0 << -1
            << QStringLiteral("unknown") << QStringLiteral("capacity") << QStringLiteral("");
    }
    void reports() {
        QFETCH(QString, log);
        QFETCH(QString, hf_config);
        QFETCH(QString, model);
        QFETCH(int, gpus);
        QFETCH(int, stage);
        QFETCH(QString, moment);
        QFETCH(QString, cause);
        QFETCH(QString, term);
        const std::string text = read_text_file(test_data_path(log.toStdString()));
        const OomLog oom = read_oom_log(text, log.toStdString());
        Scenario s = setup_from_log(text, oom, log.toStdString()).scenario;
        if (!hf_config.isEmpty())
            s.model = import_hf_config(read_text_file(test_data_path(hf_config.toStdString())), hf_config.toStdString());
        if (!model.isEmpty()) s.model = model_preset(model.toStdString()).spec;
        if (gpus > 0) {
            s.cluster.gpus_per_node = std::min(gpus, 8);
            s.cluster.nodes = (gpus + 7) / 8;
        }
        if (stage >= 0) s.zero.stage = stage;
        s.training.global_batch = 0;
        const OomDiagnosis d = diagnose_oom(oom, s);
        QCOMPARE(moment_name(d.moment, d.phase), moment);
        QCOMPARE(cause_name(d.cause), cause);
        QCOMPARE(d.term ? QString::fromStdString(d.term->name).left(term.size()) : QString(), term);
        if (d.cause != OomCause::Capacity) {
            QVERIFY(!d.advice.empty());
            QVERIFY(d.fixes.empty());
            return;
        }
        if (d.moment != OomMoment::InStep) return;  // the moment unnamed: nothing to plan against
        // A change the planner confirms fits: peak below the card on the log's GPUs. Every fix
        // keeps the log's GPUs but the last resort, twice as many of them.
        const double card_bytes = s.cluster.gpu.memory_gib * kBytesPerGiB;
        bool fits = false;
        for (const OomFix& f : d.fixes) {
            QCOMPARE(f.scenario.cluster.gpu.memory_gib, s.cluster.gpu.memory_gib);
            if (f.scenario.cluster.world_size() != s.cluster.world_size()) {
                QCOMPARE(f.scenario.cluster.world_size(), 2 * s.cluster.world_size());
                QVERIFY2(f.change.find(" GPUs instead of ") != std::string::npos, f.change.c_str());
                continue;
            }
            if (f.fits) {
                QVERIFY2(f.peak_bytes < card_bytes, f.change.c_str());
                fits = true;
            }
        }
        QVERIFY2(fits, "no change the planner confirms fits");
        QVERIFY(d.planned_bytes.has_value());
    }

    // The cause each message shows. Fragmentation only where the cache held the request and the run
    // had room on the card; a full card is capacity whatever the cache's pieces, a request over the
    // card a shape; other processes on the GPU as what they hold. The messages verbatim from the
    // issues cited (a review of 30 public reports, 2026-11-28).
    void cause_from_the_message_data() {
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("cause");
        QTest::addColumn<QString>("evidence");
        QTest::newRow("DeepSpeed#3208: 13.30 of 14.56 GiB allocated, capacity")
            << QStringLiteral(
                   "RuntimeError: CUDA out of memory. Tried to allocate 256.00 MiB (GPU 0; 14.56 GiB total capacity; 13.30 GiB "
                   "already allocated; 230.50 MiB free; 13.65 GiB reserved in total by PyTorch)")
            << int(OomCause::Capacity) << QString();
        // Held out (stop 82's review): sampling with beams asked 11 million cards, no plan's request.
        QTest::newRow("Qwen3-VL#334: 538,976,288 GiB of a 47.54 GiB card, a size computed wrong")
            << QStringLiteral(
                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 538976288.13 GiB. GPU 1 has a total capacity of 47.54 "
                   "GiB of which 43.55 GiB is free. Process 741857 has 3.97 GiB memory in use. Of the allocated memory 3.19 GiB is "
                   "allocated by PyTorch, and 478.31 MiB is reserved by PyTorch but unallocated.")
            << int(OomCause::TensorShape) << QStringLiteral("11,337,322 times the whole card");
        QTest::newRow("MusePose#20: 243 GiB asked of a 16 GiB card, a shape")
            << QStringLiteral(
                   "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 243.00 GiB (GPU 0; 15.99 GiB total "
                   "capacity; 13.51 GiB already allocated; 0 bytes free; 15.91 GiB reserved in total by PyTorch)")
            << int(OomCause::Capacity) << QStringLiteral("is larger than the whole card");
        QTest::newRow("NetLLM#11: 22.35 GiB allocated on an 8 GiB card, host memory")
            << QStringLiteral(
                   "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 172.00 MiB (GPU 0; 8.00 GiB total "
                   "capacity; 22.35 GiB already allocated; 0 bytes free; 22.35 GiB reserved in total by PyTorch)")
            << int(OomCause::Capacity) << QStringLiteral("spilled into host memory");
        // Other processes: PyTorch 2.1-2.3 list this one too (vllm#751: its 28.19 GiB beside 27.48
        // reserved), and two small ones beside a 9.74 GiB process are no ranks sharing the GPU
        // (FireRedTTS2#17: its cache held the 26 MiB in pieces).
        QTest::newRow("vllm#751: one other process, 50.52 GiB")
            << QStringLiteral(
                   "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB. GPU 0 has a total capacty of "
                   "79.11 GiB of which 391.12 MiB is free. Process 247516 has 50.52 GiB memory in use. Process 477367 has "
                   "28.19 GiB memory in use. Of the allocated memory 27.48 GiB is allocated by PyTorch, and 1.98 MiB is "
                   "reserved by PyTorch but unallocated.")
            << int(OomCause::DevicePlacement) << QStringLiteral("lists 1 other process holding 50.52 GiB");
        // PyTorch names this process apart ("this process has", 2.1+ where the driver sees its pid),
        // so one listed process is another (GLM-4#408: 28.09 GiB beside this one's 50.95; the 825 MiB
        // cache was not what ran short).
        QTest::newRow("GLM-4#408: one other process, 28.09 GiB, this process named")
            << QStringLiteral(
                   "[rank5]: OutOfMemoryError: CUDA out of memory. Tried to allocate 66.00 MiB. GPU  has a total capacity of 79.14 "
                   "GiB of which 25.69 MiB is free. Process 8674 has 28.09 GiB memory in use. Including non-PyTorch memory, this "
                   "process has 50.95 GiB memory in use. Of the allocated memory 49.39 GiB is allocated by PyTorch, and 825.12 MiB "
                   "is reserved by PyTorch but unallocated.")
            << int(OomCause::DevicePlacement) << QStringLiteral("lists 1 other process holding 28.09 GiB");
        // PyTorch names this process apart ("this process has"): every "Process P" is another, so two
        // ranks of one job holding the same are placement (stop 82's code review); a driver that
        // reports this process as 0 bytes leaves the reserve as its own, and a small desktop process
        // beside it is not.
        QTest::newRow("two ranks of one job, the same size")
            << QStringLiteral(
                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 79.14 GiB of "
                   "which 25.69 MiB is free. Process 8674 has 39.50 GiB memory in use. Including non-PyTorch memory, this process has "
                   "39.50 GiB memory in use. Of the allocated memory 37.39 GiB is allocated by PyTorch, and 1.20 GiB is reserved by "
                   "PyTorch but unallocated.")
            << int(OomCause::DevicePlacement) << QStringLiteral("lists 1 other process holding 39.50 GiB");
        QTest::newRow("this process as 0 bytes, a 300 MiB desktop process beside it")
            << QStringLiteral(
                   "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacty of 23.49 GiB "
                   "of which 1.47 GiB is free. Process 1234 has 300.00 MiB memory in use. Including non-PyTorch memory, this process "
                   "has 0 bytes memory in use. Of the allocated memory 20.50 GiB is allocated by PyTorch, and 30.00 MiB is reserved by "
                   "PyTorch but unallocated.")
            << int(OomCause::Capacity) << QString();
        // srun --label's "N: " is a task (a node under torchrun), not a rank: two nodes each out on
        // their GPU 0 are not ranks sharing one GPU.
        QTest::newRow("srun labels: two nodes, each its GPU 0")
            << QStringLiteral(
                   "0: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total capacity; "
                   "75.00 GiB already allocated; 1.00 GiB free; 77.00 GiB reserved in total by PyTorch)\n"
                   " 1: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total capacity; "
                   "75.00 GiB already allocated; 1.00 GiB free; 77.00 GiB reserved in total by PyTorch)")
            << int(OomCause::Capacity) << QString();
        // A size no GPU holds inside generate's beam search: the shape, before evaluation.
        QTest::newRow("Qwen3-VL#334 with its generate frames: still the shape")
            << QStringLiteral(
                   "Traceback (most recent call last):\n  File \"infer.py\", line 10, in <module>\n    out = model.generate(**inputs)\n"
                   "  File \"/usr/lib/python3/site-packages/transformers/generation/utils.py\", line 2000, in generate\n"
                   "    result = self._beam_search(\n"
                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 538976288.13 GiB. GPU 1 has a total capacity of 47.54 "
                   "GiB of which 43.55 GiB is free. Process 741857 has 3.97 GiB memory in use. Of the allocated memory 3.19 GiB is "
                   "allocated by PyTorch, and 478.31 MiB is reserved by PyTorch but unallocated.")
            << int(OomCause::TensorShape) << QStringLiteral("times the whole card");
        QTest::newRow("a card reported as 0 bytes is no shape")
            << QStringLiteral(
                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 0 bytes of "
                   "which 0 bytes is free. Of the allocated memory 0 bytes is allocated by PyTorch, and 0 bytes is reserved by PyTorch "
                   "but unallocated.")
            << int(OomCause::Capacity) << QString();
        QTest::newRow("FireRedTTS2#17: two small processes beside this one, not placement")
            << QStringLiteral(
                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 26.00 MiB. GPU 0 has a total capacity of "
                   "11.66 GiB of which 9.81 MiB is free. Process 3893521 has 618.00 MiB memory in use. Process 1493972 has "
                   "1.28 GiB memory in use. Including non-PyTorch memory, this process has 9.74 GiB memory in use. Of the "
                   "allocated memory 9.30 GiB is allocated by PyTorch, and 163.19 MiB is reserved by PyTorch but unallocated.")
            << int(OomCause::Fragmentation) << QString();
        QTest::newRow("VisCPM#23: 28 GiB outside PyTorch")
            << QStringLiteral(
                   "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 954.00 MiB (GPU 7; 79.21 GiB total "
                   "capacity; 49.63 GiB already allocated; 844.62 MiB free; 50.24 GiB reserved in total by PyTorch)")
            << int(OomCause::Capacity) << QStringLiteral("is held outside PyTorch's allocator");
        QTest::newRow("llama-cookbook#320: 9.71 + 10.08 of 22.2 GiB, fragmentation")
            << QStringLiteral(
                   "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 10.08 GiB. GPU 0 has a total capacty of "
                   "22.20 GiB of which 687.12 MiB is free. Process 40666 has 21.53 GiB memory in use. Of the allocated memory "
                   "9.71 GiB is allocated by PyTorch, and 10.61 GiB is reserved by PyTorch but unallocated.")
            << int(OomCause::Fragmentation) << QStringLiteral("in pieces");
        // Free far beyond the request's segment: CUDA or HIP refused a request the card had room for
        // (the figure is read after PyTorch released its cache); a cap on the process is its capacity.
        QTest::newRow("ComfyUI#13112: 26 MiB refused with 13.60 GiB free (ROCm on Windows), card had room")
            << QStringLiteral(
                   "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 26.00 MiB. GPU 0 has a total capacity of 15.92 GiB "
                   "of which 13.60 GiB is free. Of the allocated memory 1.72 GiB is allocated by PyTorch, and 28.98 MiB is reserved "
                   "by PyTorch but unallocated.")
            << int(OomCause::CardHadRoom) << QStringLiteral("CUDA refused an allocation the card had room for");
        QTest::newRow("ChatGLM-Finetuning#28: 128 MiB with 37.32 GiB free under WSL2, card had room")
            << QStringLiteral(
                   "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 128.00 MiB (GPU 0; 44.99 GiB total capacity; "
                   "6.15 GiB already allocated; 37.32 GiB free; 6.15 GiB reserved in total by PyTorch)")
            << int(OomCause::CardHadRoom) << QStringLiteral("37.32 GiB free");
        QTest::newRow("pytorch#16417: 12.50 MiB (a 14 MiB segment) with 9.28 GiB free, card had room")
            << QStringLiteral(
                   "RuntimeError: CUDA out of memory. Tried to allocate 12.50 MiB (GPU 0; 10.92 GiB total capacity; 8.57 MiB "
                   "already allocated; 9.28 GiB free; 4.68 MiB cached)")
            << int(OomCause::CardHadRoom) << QStringLiteral("the 14.00 MiB segment");
        // PyTorch 1.0-1.3's form: 5.50 GiB cached beyond 4.80 allocated, a reserve of 10.30 GiB.
        QTest::newRow("1.x form, synthetic: 2 GiB with 5.50 GiB cached beyond the allocated, fragmentation")
            << QStringLiteral(
                   "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 10.92 GiB total capacity; 4.80 GiB "
                   "already allocated; 120.50 MiB free; 5.50 GiB cached)")
            << int(OomCause::Fragmentation) << QStringLiteral("the cache held enough memory");
        // Two messages from two cards: what is read off the second says it is the second's.
        QTest::newRow("two messages: the second card's memory outside PyTorch names its message")
            << QStringLiteral(
                   "RuntimeError: CUDA out of memory. Tried to allocate 9.33 GiB (GPU 0; 10.76 GiB total capacity; 5.17 GiB "
                   "already allocated; 4.48 GiB free; 5.28 GiB reserved in total by PyTorch)\n"
                   "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 1; 79.21 GiB total capacity; 50.00 GiB "
                   "already allocated; 0.84 GiB free; 50.24 GiB reserved in total by PyTorch)")
            << int(OomCause::Capacity) << QStringLiteral("message 2 of 2 (GPU 1): 28.13 GiB of the card is held outside");
        QTest::newRow("OOTDiffusion#167: 2 GiB with 2.80 GiB free of 4 GiB, capacity")
            << QStringLiteral(
                   "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacty of 4.00 "
                   "GiB of which 2.80 GiB is free. Of the allocated memory 0 bytes is allocated by PyTorch, and 0 bytes is reserved "
                   "by PyTorch but unallocated.")
            << int(OomCause::Capacity) << QString();
        // The cache's 137.96 MiB held the 72 MiB in pieces, with room on the 512 MiB carve-out.
        QTest::newRow("ComfyUI-Docker#54: 17179869183.96 GiB free of 512 MiB (an APU), the figure not used")
            << QStringLiteral(
                   "HIP out of memory. Tried to allocate 72.00 MiB. GPU 0 has a total capacty of 512.00 MiB of which 17179869183.96 "
                   "GiB is free. Of the allocated memory 292.04 MiB is allocated by PyTorch, and 137.96 MiB is reserved by PyTorch "
                   "but unallocated.")
            << int(OomCause::Fragmentation) << QStringLiteral("misreports free memory");
        // Synthetic: PyTorch's wording with a process fraction (CUDACachingAllocator.cpp allowed_info).
        QTest::newRow("set_per_process_memory_fraction(0.5): the cap, capacity")
            << QStringLiteral(
                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB "
                   "of which 40.12 GiB is free. Including non-PyTorch memory, this process has 39.02 GiB memory in use. 39.58 GiB "
                   "allowed; Of the allocated memory 37.50 GiB is allocated by PyTorch, and 1.01 GiB is reserved by PyTorch but "
                   "unallocated.")
            << int(OomCause::Capacity) << QStringLiteral("the cap, not the card, ran out");
    }
    // PyTorch 1.0-1.3's "X cached)" is the cache beyond the allocated bytes (CUDACachingAllocator.cpp:
    // amount_cached - amount_allocated); 1.4 printed the whole reserve under that word. The reserve
    // is allocated + cached unless that sum with the free bytes exceeds the card.
    // DeepSpeed#237: GPT-2 18B, 8-way tensor parallel on 8 GPUs, ZeRO-2 out of memory at start-up;
    // the maintainer: "your data parallelism is 1, so there is no memory reduction". At data
    // parallelism 1 the start-up advice names more data-parallel GPUs, not a higher stage.
    void remedies_at_data_parallelism_one() {
        Scenario s = test::preset_scenario("llama-2-7b", "v100-32gb", 8);
        s.parallel.tensor = 8;
        const auto one = oom_remedies(s, OomMoment::InStep, StepPhase::StartUp);
        QVERIFY2(one.front().starts_with("more data-parallel GPUs: at data parallelism 1"), one.front().c_str());
        s.parallel.tensor = 1;
        const auto eight = oom_remedies(s, OomMoment::InStep, StepPhase::StartUp);
        QVERIFY2(eight.front().starts_with("more data-parallel GPUs or a higher ZeRO stage"), eight.front().c_str());
    }

    // Where the log or the user gave the ZeRO setup, the remedies leave out what it has or cannot
    // use: sub_group_size below stage 3 (stage3.py reads it; lint.cpp says the same of a ds_config),
    // a higher stage at stage 3, and the optimizer offload that is already on. Not known (the
    // default scenario's setup), the moment's whole list stays.
    void remedies_fit_the_known_setup_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<bool>("offload");
        QTest::addColumn<bool>("known");
        QTest::addColumn<int>("phase");
        QTest::addColumn<QString>("absent");   // a remedy that must not be said ("" none)
        QTest::addColumn<QString>("present");  // one that must
        QTest::newRow("ZeRO-2 at start-up: no sub_group_size") << 2 << false << true << int(StepPhase::StartUp) << "sub_group_size"
                                                               << "offload_optimizer device cpu";
        QTest::newRow("ZeRO-2, not known: the whole list") << 2 << false << false << int(StepPhase::StartUp) << ""
                                                           << "sub_group_size";
        QTest::newRow("ZeRO-3 at start-up: no higher stage") << 3 << false << true << int(StepPhase::StartUp) << "higher ZeRO stage"
                                                             << "more data-parallel GPUs: the fp32 master weights";
        QTest::newRow("ZeRO-3 after the step: no ZeRO-3 instead")
            << 3 << false << true << int(StepPhase::ParameterGather) << "ZeRO-3 instead of"
            << "allgather_bucket_size";
        QTest::newRow("offload on: not offered again")
            << 3 << true << true << int(StepPhase::OptimizerStep) << "offload_optimizer device cpu"
            << "sub_group_size";
        QTest::newRow("ZeRO-1 in backward: no ZeRO-3 settings")
            << 1 << false << true << int(StepPhase::Backward) << "stage3_max_live_parameters"
            << "activation checkpointing";
    }
    void remedies_fit_the_known_setup() {
        QFETCH(int, stage);
        QFETCH(bool, offload);
        QFETCH(bool, known);
        QFETCH(int, phase);
        QFETCH(QString, absent);
        QFETCH(QString, present);
        Scenario s = test::preset_scenario("llama-2-7b", "a100-80gb", 8);
        s.zero.stage = stage;
        if (offload) s.zero.offload_optimizer = OffloadDevice::Cpu;
        const auto remedies = oom_remedies(s, OomMoment::InStep, static_cast<StepPhase>(phase), known);
        const auto said = [&](const QString& words) {
            return std::any_of(remedies.begin(), remedies.end(),
                               [&](const std::string& r) { return r.find(words.toStdString()) != std::string::npos; });
        };
        if (!absent.isEmpty()) QVERIFY2(!said(absent), qPrintable(absent));
        QVERIFY2(said(present), qPrintable(present));
    }

    // The recommended plan is the search's, layout included: where it chose tensor, pipeline or
    // expert sizes the run did not have (the window's layout sizes are on auto), the fix's words say
    // them, since its bytes are that layout's and a Trainer run cannot take it (a user review: the
    // window offered "ZeRO-1 + CPU optimizer, 35.79 GiB" that was pipeline 6 x expert 8).
    void recommended_plan_names_a_layout_it_chose() {
        const OomLog log = read_oom_log(read_text_file(test_data_path("oom/llamafactory7532_zero3_torch_adamw.log")), "7532");
        Scenario s = test::preset_scenario("deepseek-v2-lite", "a100-80gb", 48);
        s.parallel.auto_tensor = s.parallel.auto_pipeline = s.parallel.auto_expert = true;
        s.zero.stage = 3;
        const OomDiagnosis d = diagnose_oom(log, s, true);
        const auto plan = std::find_if(d.fixes.begin(), d.fixes.end(),
                                       [](const OomFix& f) { return f.change.starts_with("the planner's recommended plan"); });
        QVERIFY(plan != d.fixes.end());
        QVERIFY2(!(plan->scenario.parallel == s.parallel), "the search chose a layout here");
        QVERIFY2(plan->change.find(", layout ") != std::string::npos && plan->change.find("(Megatron-DeepSpeed)") != std::string::npos,
                 plan->change.c_str());
    }

    // Generation at ZeRO-3 gathers every layer's weights a token; below stage 3 that remedy is noise.
    void evaluation_remedies_fit_the_known_stage() {
        Scenario s = test::preset_scenario("llama-2-7b", "a100-80gb", 8);
        const auto says_zero3 = [](const std::vector<std::string>& remedies) {
            return std::any_of(remedies.begin(), remedies.end(), [](const std::string& r) { return r.starts_with("at ZeRO-3"); });
        };
        s.zero.stage = 2;
        QVERIFY(!says_zero3(oom_remedies(s, OomMoment::Evaluation, StepPhase::Forward, true)));
        QVERIFY(says_zero3(oom_remedies(s, OomMoment::Evaluation, StepPhase::Forward, false)));
        s.zero.stage = 3;
        QVERIFY(says_zero3(oom_remedies(s, OomMoment::Evaluation, StepPhase::Forward, true)));
    }

    // diagnose drops remedies by their scope, not their words: every remedy that names a stage-3 key,
    // a move to ZeRO-3 or optimizer offload carries the scope that says so.
    void remedies_that_name_a_setting_carry_its_scope() {
        const std::vector<std::pair<std::string, RemedyScope>> names = {{"sub_group_size", RemedyScope::Stage3Setting},
                                                                        {"stage3_max_live", RemedyScope::Stage3Setting},
                                                                        {"at ZeRO-3", RemedyScope::Stage3Setting},
                                                                        {"ZeRO-3 instead of", RemedyScope::ToStage3},
                                                                        {"offload_optimizer device", RemedyScope::OptimizerOffload}};
        // Every moment's and phase's list.
        std::vector<OomRemedy> all;
        for (int m = 0; m <= static_cast<int>(OomMoment::Unknown); ++m)
            for (int p = 0; p <= static_cast<int>(StepPhase::ParameterGather); ++p)
                for (OomRemedy& r : oom_remedy_list(static_cast<OomMoment>(m), static_cast<StepPhase>(p))) all.push_back(std::move(r));
        int checked = 0;
        for (const OomRemedy& r : all)
            for (const auto& [words, scope] : names)
                if (r.text.find(words) != std::string::npos) {
                    QVERIFY2(r.scope == scope, r.text.c_str());
                    ++checked;
                }
        QVERIFY(checked >= 6);
        // And every remedy that names one engine's setting carries that engine.
        const std::vector<std::pair<std::string, RemedyEngine>> keys = {{"sub_group_size", RemedyEngine::DeepSpeed},
                                                                        {"stage3_", RemedyEngine::DeepSpeed},
                                                                        {"offload_optimizer", RemedyEngine::DeepSpeed},
                                                                        {"bucket_size", RemedyEngine::DeepSpeed},
                                                                        {"contiguous_gradients", RemedyEngine::DeepSpeed},
                                                                        {"ds_config", RemedyEngine::DeepSpeed},
                                                                        {"zero.Init", RemedyEngine::DeepSpeed},
                                                                        {"CPUOffload", RemedyEngine::Fsdp}};
        int named = 0;
        for (const OomRemedy& r : all)
            for (const auto& [words, engine] : keys)
                if (r.text.find(words) != std::string::npos) {
                    QVERIFY2(r.engine == engine, r.text.c_str());
                    ++named;
                }
        QVERIFY(named >= 12);
    }

    // A PyTorch FSDP run is told FSDP's settings, never DeepSpeed's keys (a user review: O10 under
    // --engine fsdp was offered reduce_bucket_size and offload_optimizer).
    void fsdp_run_is_told_fsdp_settings() {
        Scenario s = test::preset_scenario("llama-2-7b", "a100-80gb", 8);
        s.fsdp.engine = Engine::Fsdp;
        s.zero.stage = 3;
        for (int p = 0; p <= static_cast<int>(StepPhase::ParameterGather); ++p)
            for (const std::string& r : oom_remedies(s, OomMoment::InStep, static_cast<StepPhase>(p), true))
                for (const char* key : {"sub_group_size", "stage3_", "offload_optimizer", "bucket_size", "ds_config", "zero.Init"})
                    QVERIFY2(r.find(key) == std::string::npos, r.c_str());
        const auto step = oom_remedies(s, OomMoment::InStep, StepPhase::OptimizerStep, true);
        QVERIFY(std::any_of(step.begin(), step.end(), [](const std::string& r) { return r.starts_with("CPU offload"); }));
        s.fsdp.engine = Engine::DeepSpeed;
        const auto deepspeed = oom_remedies(s, OomMoment::InStep, StepPhase::OptimizerStep, true);
        QVERIFY(std::none_of(deepspeed.begin(), deepspeed.end(), [](const std::string& r) { return r.starts_with("CPU offload"); }));
    }

    // What the log's own lines rule out (remedy_context): a Hugging Face-only kernel for Megatron's
    // GPTModel, Megatron's flag for a Hugging Face model, and a fused optimizer where the failing line
    // creates an Adam moment, which FusedAdam creates too (ops/adam/fused_adam.py; a review of O03
    // and O10).
    void remedies_follow_what_the_log_shows_data() {
        QTest::addColumn<QString>("log");
        QTest::addColumn<int>("phase");
        QTest::addColumn<QString>("kept");
        QTest::addColumn<QString>("dropped");
        QTest::newRow("Megatron#92: the loss without its up-cast, no Liger")
            << "oom/megatron92_fp32_logits.log" << int(StepPhase::Loss) << "--fp16-lm-cross-entropy"
            << "Liger";
        QTest::newRow("the Trainer's loss (transformers' fixed_cross_entropy): Liger, no Megatron flag")
            << "Traceback (most recent call last):\n"
               "  File \"/venv/transformers/trainer.py\", line 2560, in _inner_training_loop\n"
               "    tr_loss_step = self.training_step(model, inputs, num_items_in_batch)\n"
               "  File \"/venv/transformers/loss/loss_utils.py\", line 36, in fixed_cross_entropy\n"
               "    loss = nn.functional.cross_entropy(source, target, ignore_index=ignore_index, reduction=reduction)\n"
               "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.83 GiB. GPU 0 has a total capacity of 79.10 GiB "
               "of which 1.12 GiB is free.\n"
            << int(StepPhase::Loss) << "Liger"
            << "--fp16-lm-cross-entropy";
        QTest::newRow("LLaMA-Factory#7532: exp_avg_sq made by zeros_like, no fused optimizer")
            << "oom/llamafactory7532_zero3_torch_adamw.log" << int(StepPhase::OptimizerStep) << "offload_optimizer"
            << "FusedAdam";
        QTest::newRow("TRL#2776: torch's foreach temporary, the fused optimizer kept")
            << "oom/trl2776_grpo_foreach_sqrt.log" << int(StepPhase::OptimizerStep) << "FusedAdam"
            << "--fp16-lm-cross-entropy";
    }
    void remedies_follow_what_the_log_shows() {
        QFETCH(QString, log);
        QFETCH(int, phase);
        QFETCH(QString, kept);
        QFETCH(QString, dropped);
        // A file of tests/data, or the log's text itself.
        const std::string text =
            log.endsWith(QLatin1String(".log")) ? read_text_file(test_data_path(log.toStdString())) : log.toStdString();
        const OomLog oom = read_oom_log(text, "log");
        const Scenario s = test::preset_scenario("llama-2-7b", "a100-80gb", 8);
        const auto remedies = oom_remedies(s, OomMoment::InStep, static_cast<StepPhase>(phase), false, remedy_context(oom));
        const auto has = [&](const QString& words) {
            return std::any_of(remedies.begin(), remedies.end(),
                               [&](const std::string& r) { return r.find(words.toStdString()) != std::string::npos; });
        };
        QVERIFY2(has(kept), qPrintable(kept));
        QVERIFY2(!has(dropped), qPrintable(dropped));
    }

    void old_cached_figure_data() {
        QTest::addColumn<QString>("message");
        QTest::addColumn<double>("reserved_gib");
        QTest::newRow("DeepSpeed#237 (1.x): 14.59 MiB beyond 25.59 GiB allocated")
            << QStringLiteral(
                   "RuntimeError: CUDA out of memory. Tried to allocate 8.52 GiB (GPU 0; 31.72 GiB total capacity; "
                   "25.59 GiB already allocated; 5.39 GiB free; 14.59 MiB cached)")
            << 25.59 + 14.59 / 1024;
        QTest::newRow("1.4: 9.80 GiB cached beside 9.70 allocated of 10.73 is the whole reserve")
            << QStringLiteral(
                   "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 10.73 GiB total capacity; "
                   "9.70 GiB already allocated; 21.56 MiB free; 9.80 GiB cached)")
            << 9.80;
    }
    void old_cached_figure() {
        QFETCH(QString, message);
        QFETCH(double, reserved_gib);
        const OomLog log = read_oom_log(message.toStdString() + "\n", "run.log");
        QCOMPARE(log.events.size(), std::size_t{1});
        QVERIFY(log.events[0].reserved_bytes.has_value());
        QVERIFY2(std::abs(*log.events[0].reserved_bytes / (1024.0 * 1024 * 1024) - reserved_gib) < 0.01,
                 std::to_string(*log.events[0].reserved_bytes / (1024.0 * 1024 * 1024)).c_str());
    }

    void cause_from_the_message() {
        QFETCH(QString, message);
        QFETCH(int, cause);
        QFETCH(QString, evidence);
        const OomLog log = read_oom_log(message.toStdString() + "\n", "run.log");
        std::vector<std::string> said, advice;
        QCOMPARE(int(oom_cause(log, &said, &advice)), cause);
        if (!evidence.isEmpty())
            QVERIFY(
                std::any_of(said.begin(), said.end(), [&](const std::string& e) { return QString::fromStdString(e).contains(evidence); }));
    }

    // Out of memory outside PyTorch's caching allocator (core/io/oom_log.h OomSource): public
    // reports in tests/data/oom/outside/, each file's header citing its thread and what it
    // concluded. The source the message names, the cause the frames and NCCL's trace show, the
    // moment, and the words of the evidence.
    void outside_the_allocator_data() {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("cause");
        QTest::addColumn<QString>("moment");
        QTest::addColumn<QString>("evidence");
        const auto row = [](const char* log, const char* source, const char* cause, const char* moment, const char* evidence) {
            QTest::newRow(log) << QString::fromLatin1(log) << QString::fromLatin1(source) << QString::fromLatin1(cause)
                               << QString::fromLatin1(moment) << QString::fromUtf8(evidence);
        };
        row("01_s3prl_empty_cache_gpu0_busy.log", "cuda_runtime", "device placement", "evaluation", "makes a CUDA context on GPU 0");
        row("02_ray_train_shutdown_empty_cache_gpu0.log", "cuda_runtime", "device placement", "unknown", "torch.cuda.empty_cache() failed");
        row("03_autoformer_empty_cache_4x2080ti.log", "cuda_runtime", "device placement", "unknown", "torch.cuda.empty_cache() failed");
        row("04_ds_zero3_stage3_pinned_flat_buffer_wsl.log", "cuda_runtime", "host memory", "start-up",
            "pins host memory (a frame _create_param_groups_fp16_flat_cpu_memory)");
        row("05_wsl_pin_memory_offload_cache.log", "cuda_runtime", "host memory", "unknown", "pins host memory (a frame pin_memory)");
        row("06_moss_wsl_memory_cuda_error_oom.log", "cuda_runtime", "outside the allocator", "unknown",
            "a CUDA call outside PyTorch's cache");
        row("08_nccl_wsl2_shm_alloc_oom_llamafactory.log", "nccl", "host memory", "unknown",
            "NCCL's shared-memory transport (transport/shm.cc)");
        row("09_nccl_enqueue_oom_opensora.log", "nccl", "outside the allocator", "unknown", "through enqueue.cc");
        row("10_nccl_p2p_proxy_calloc_oom_multinode.log", "nccl", "outside the allocator", "unknown", "through transport/p2p.cc");
        row("12_nccl_calloc_async_internal_error_zeropp_stage3.log", "nccl", "outside the allocator", "gradient reduce",
            "Failed to CUDA calloc async 1920 bytes");
        row("13_nccl_init_oom_rank1_on_device0_2018.log", "nccl", "outside the allocator", "unknown",
            "NCCL could not allocate its buffers");
        row("14_cublas_alloc_failed_ds_chat_backward.log", "cuda_library", "outside the allocator", "backward",
            "CUBLAS_STATUS_ALLOC_FAILED");
        row("15_cublas_alloc_failed_two_gpus_vs_one.log", "cuda_library", "outside the allocator", "forward", "CUBLAS_STATUS_ALLOC_FAILED");
        row("16_cublas_alloc_failed_rank_prefixed_backward.log", "cuda_library", "outside the allocator", "backward",
            "CUBLAS_STATUS_ALLOC_FAILED");
        row("17_ds_fail_to_create_cublas_handle_interleaved.log", "cuda_library", "outside the allocator", "unknown",
            "Fail to create cublas handle.");
        row("18_gpu0_held_by_other_job_nvidia_smi.log", "cuda_runtime", "outside the allocator", "unknown", "CUDA error: out of memory");
        // NCCL's failure first, the allocator's message after it (torch's c10d logger formatting a
        // tensor while handling it): NCCL's is the failure, the allocator's shows the card full.
        row("19_peft1703_nccl_broadcast_then_allocator.log", "nccl", "outside the allocator", "unknown",
            "PyTorch's out-of-memory message beside it: 2.00 MiB free of 39.39 GiB on GPU 1");
        row("20_sdnext4801_rocm_hip_error_code.log", "cuda_runtime", "outside the allocator", "unknown", "(\"hipErrorOutOfMemory\")");
        // A chained exception: the handler's traceback (generate_video_error_handler) is not the
        // failure's, and an excerpt starting inside the failing traceback keeps its frames.
        row("21_wan2gp1083_chained_no_traceback_line.log", "cuda_runtime", "outside the allocator", "unknown",
            "torch.AcceleratorError: CUDA error: out of memory");
        row("23_synthetic_interleaved_nccl_processes.log", "nccl", "outside the allocator", "unknown", "through transport/p2p.cc");
        // Rich's boxed traceback: the frame "cuda_accelerator.py:217 in" with its name on the next box line.
        row("24_ds2977_rich_traceback_pin_memory.log", "cuda_runtime", "host memory", "unknown", "pins host memory (a frame pin_memory)");
    }
    void outside_the_allocator() {
        QFETCH(QString, log);
        QFETCH(QString, source);
        QFETCH(QString, cause);
        QFETCH(QString, moment);
        QFETCH(QString, evidence);
        const OomLog oom = read_oom_log(read_text_file(test_data_path("oom/outside/" + log.toStdString())), log.toStdString());
        QCOMPARE(QString::fromLatin1(oom_source_key(oom.events.front().source)), source);
        QCOMPARE(oom.events.front().tried_bytes, 0.0);
        const OomDiagnosis d = diagnose_oom(oom, default_scenario());
        QCOMPARE(cause_name(d.cause), cause);
        QCOMPARE(moment_name(d.moment, d.phase), moment);
        QVERIFY2(std::any_of(d.evidence.begin(), d.evidence.end(),
                             [&](const std::string& e) { return QString::fromStdString(e).contains(evidence); }),
                 qPrintable(QString::fromStdString(d.evidence.empty() ? std::string() : d.evidence.front())));
        QVERIFY(!d.term);  // no request size to match
        // A full card wants the capacity changes, where the moment is the step's.
        QCOMPARE(!d.fixes.empty(), d.cause == OomCause::OutsideAllocator && d.moment == OomMoment::InStep);
    }

    // Warnings that read like out-of-memory failures and are none: refused, the refusal saying why.
    // NCCL before 2.12 prints "Cuda failure 'out of memory'" after "[Rem Allocator] Allocation
    // failed" when a stray connection reaches it, and training goes on (NVIDIA/nccl#555, #844): with
    // NCCL's INFO trace (bootstrap.cc) or without it (NCCL_DEBUG=WARN: within three lines of the
    // warning). NVIDIA/nccl#1284's title: PyTorch asking for "more than 1EB" after a collective timed
    // out, which NCCL's maintainers say to ignore.
    void no_failure_refused_data() {
        QTest::addColumn<QString>("file");  // under tests/data/oom/outside/, or "" for `text`
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("said");
        const QString remote = QStringLiteral("[Rem Allocator] Allocation failed\" is a warning");
        QTest::newRow("nccl#844 with its INFO trace") << "11_nccl_rem_allocator_false_oom_nonfatal.log" << QString() << remote;
        QTest::newRow("nccl#844 at NCCL_DEBUG=WARN") << "22_synthetic_nccl844_rem_allocator_warn_only.log" << QString() << remote;
        QTest::newRow("nccl#1284: more than 1EB")
            << QString() << QStringLiteral("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate more than 1EB memory\n")
            << QStringLiteral("asks for \"more than 1EB\", no real request");
    }
    void no_failure_refused() {
        QFETCH(QString, file);
        QFETCH(QString, text);
        QFETCH(QString, said);
        const std::string log = file.isEmpty() ? text.toStdString() : read_text_file(test_data_path("oom/outside/" + file.toStdString()));
        try {
            read_oom_log(log, "run.log");
            QFAIL("read as a failure");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(said), e.what());
        }
    }

    // A file whose lines end in a lone carriage return (a CR-only file, or a progress bar's output):
    // each is a line, so the frames are read and name the moment.
    void carriage_returns_end_lines() {
        const std::string text =
            "Traceback (most recent call last):\r  File \"train.py\", line 10, in <module>\r    engine.backward(loss)\r"
            "  File \"deepspeed/runtime/engine.py\", line 2000, in backward\r    loss.backward()\r"
            "RuntimeError: CUDA error: out of memory\r";
        const OomLog log = read_oom_log(text, "cr.log");
        QCOMPARE(log.frames, (std::vector<std::string>{"<module>", "backward"}));
        QCOMPARE(log.moment, OomMoment::InStep);
        QCOMPARE(log.phase, StepPhase::Backward);
    }

    // The allocator's message on Intel XPU (torch's XPU allocator, the 2.1+ form without the free
    // memory: intel/torch-xpu-ops#1324) and Ascend NPU (torch_npu, the form before 2.1 with "NPU 3":
    // TouchNet#100), read as CUDA's; and a line a carriage return starts (after a progress bar).
    void other_devices_and_line_ends_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("triedGib");
        QTest::addColumn<int>("gpu");
        QTest::newRow("XPU")
            << QStringLiteral(
                   "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 512.00 MiB. GPU 0 has a total capacity of 16.50 GiB. Of "
                   "the allocated memory 16.50 GiB is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.")
            << 0.5 << 0;
        QTest::newRow("NPU")
            << QStringLiteral(
                   "RuntimeError: NPU out of memory. Tried to allocate 5.03 GiB (NPU 3; 60.96 GiB total capacity; 49.47 GiB "
                   "already allocated; 49.47 GiB current active; 1.32 GiB free; 57.55 GiB reserved in total by PyTorch)")
            << 5.03 << 3;
        QTest::newRow("after a progress bar's carriage return")
            << QStringLiteral(
                   "step 3/100 [00:01<00:10]\rRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 1; 79.15 GiB "
                   "total capacity; 76.00 GiB already allocated; 1.00 GiB free; 77.00 GiB reserved in total by PyTorch)")
            << 2.0 << 1;
    }
    void other_devices_and_line_ends() {
        QFETCH(QString, text);
        QFETCH(double, triedGib);
        QFETCH(int, gpu);
        const OomLog log = read_oom_log(text.toStdString(), "run.log");
        QCOMPARE(log.events.size(), std::size_t{1});
        QCOMPARE(log.events.front().tried_bytes, triedGib * kBytesPerGiB);
        QCOMPARE(log.events.front().gpu_index, std::optional<int>(gpu));
    }

    // The must-show request: 12.94 GiB is 4 bytes x 13.90B parameters over 4 ranks.
    void fp32_master_partition_of_the_13b_run() {
        const auto [oom, s] = baichuan_13b_zero2();
        QCOMPARE(s.cluster.world_size(), std::int64_t(4));
        const OomDiagnosis d = diagnose_oom(oom, s);
        QVERIFY(d.term && d.term_error);
        QVERIFY2(*d.term_error <= kOomTermTolerance, qPrintable(QString::number(*d.term_error)));
        QCOMPARE(QString::fromStdString(d.term->formula), QStringLiteral("4 bytes x 13.90B parameters / 4 ranks"));
        QCOMPARE(d.moment_from, std::string("the requested size"));
    }

    // The same run's terms under DeepSpeed's bf16 master weights and optimizer states
    // (ZeroSetup::bf16_master_weights, model_states.h master_element_bytes): the master partition
    // and a moment are bf16, 2 bytes an element, half the fp32 terms above.
    void bf16_master_partition_terms() {
        Scenario s = baichuan_13b_zero2().second;
        const auto find = [](const std::vector<OomTerm>& terms, const std::string& start) {
            for (const OomTerm& t : terms)
                if (t.name.rfind(start, 0) == 0) return t;
            return OomTerm{};
        };
        const OomTerm fp32 = find(oom_request_terms(s), "the fp32 master partition");
        s.zero.bf16_master_weights = true;
        const std::vector<OomTerm> terms = oom_request_terms(s);
        const OomTerm bf16 = find(terms, "the bf16 master partition");
        QVERIFY(fp32.bytes > 0 && bf16.bytes > 0);
        QCOMPARE(bf16.bytes, fp32.bytes / 2);
        QCOMPARE(QString::fromStdString(bf16.formula), QStringLiteral("2 bytes x 13.90B parameters / 4 ranks"));
        QVERIFY(find(terms, "the fp32 master partition").bytes == 0);
        QCOMPARE(QString::fromStdString(find(terms, "an optimizer moment").formula),
                 QStringLiteral("2 bytes x 13.90B parameters / 4 ranks"));
    }

    // The loss's and the loop's metrics' logits terms are a rank's (core/model/logits.h rank_logits,
    // as the step timeline's): its sequence shard under Ulysses, its vocabulary shard under tensor
    // parallelism. Llama-2 7B (vocabulary 32,000), micro batch 2 of 16,384 tokens under FSDP with one
    // train metric: the loss's fp32 up-cast 4 bytes a logit, the metric's bf16 log-probabilities 2 and
    // their fp32 copy 4 (autocast).
    void logits_terms_are_a_ranks_data() {
        QTest::addColumn<int>("ulysses");
        QTest::addColumn<int>("tensor");
        QTest::addColumn<double>("logits");
        QTest::addColumn<QString>("formula");
        QTest::newRow("data parallel: the whole micro batch")
            << 1 << 1 << 2.0 * 16384 * 32000 << "4 bytes x micro batch 2 x 16384 tokens x 32,000 vocabulary";
        QTest::newRow("Ulysses 8: a rank's 2,048 tokens")
            << 8 << 1 << 2.0 * 2048 * 32000 << "4 bytes x micro batch 2 x 16384 tokens / Ulysses 8 x 32,000 vocabulary";
        QTest::newRow("tensor 2: a rank's 16,000 words")
            << 1 << 2 << 2.0 * 16384 * 16000 << "4 bytes x micro batch 2 x 16384 tokens x 16,000 vocabulary";
    }
    void logits_terms_are_a_ranks() {
        QFETCH(int, ulysses);
        QFETCH(int, tensor);
        QFETCH(double, logits);
        QFETCH(QString, formula);
        Scenario s = default_scenario();
        s.training.seq_len = 16384;
        s.training.micro_batch = 2;
        s.training.logit_metrics = 1;
        s.fsdp.engine = Engine::Fsdp;
        s.parallel.ulysses = ulysses;
        s.parallel.tensor = tensor;
        const auto bytes_of = [](const std::vector<OomTerm>& terms, const std::string& name) {
            for (const OomTerm& t : terms)
                if (t.name == name) return t.bytes;
            return -1.0;
        };
        const std::vector<OomTerm> terms = oom_request_terms(s);
        QCOMPARE(bytes_of(terms, "the fp32 logits"), 4 * logits);
        QCOMPARE(bytes_of(terms, "a train metric's log-probabilities"), 2 * logits);
        QCOMPARE(bytes_of(terms, "a train metric's fp32 copy of the log-probabilities (autocast, for nll_loss)"), 4 * logits);
        for (const OomTerm& t : terms)
            if (t.name == "the fp32 logits") QCOMPARE(QString::fromStdString(t.formula), formula);
        // GPT-2 on transformers 4.40 up-casts nothing in its forward (logits.h): the logits are 16-bit,
        // and under FSDP's autocast nll_loss asks for an fp32 copy of the log-probabilities.
        Scenario gpt2 = s;
        gpt2.model.family = "gpt2";
        gpt2.training.loss_kernel = LossKernel::Shifted;
        const std::vector<OomTerm> sixteen = oom_request_terms(gpt2);
        QCOMPARE(bytes_of(sixteen, "the fp32 logits"), -1.0);
        QCOMPARE(bytes_of(sixteen, "the logits"), 2 * logits);
        QCOMPARE(bytes_of(sixteen, "the loss's fp32 copy of the log-probabilities (autocast, for nll_loss)"), 4 * logits);
        gpt2.fsdp.engine = Engine::DeepSpeed;  // no autocast: nothing in fp32
        QCOMPARE(bytes_of(oom_request_terms(gpt2), "the loss's fp32 copy of the log-probabilities (autocast, for nll_loss)"), -1.0);
        // A chunked loss builds no whole logits, and the loop's metrics have none to read.
        s.training.loss_kernel = LossKernel::Chunked;
        const std::vector<OomTerm> chunked = oom_request_terms(s);
        QCOMPARE(bytes_of(chunked, "the fp32 logits"), -1.0);
        QCOMPARE(bytes_of(chunked, "a train metric's log-probabilities"), -1.0);
    }

    // Composer's train metrics after a micro batch's backward (trainer.py _eval_train_metrics):
    // LanguageCrossEntropy's cross_entropy asks for autocast's fp32 copy of the log-probabilities for
    // nll_loss, 4 bytes x 128 x 512 tokens x 50,368 = 12.30 GiB. The log's setup computes at least
    // that metric (setup_from_log), the moment is the metrics', and the remedies and the fixes name
    // llm-foundry's use_train_metrics.
    void composer_train_metrics_moment() {
        const std::string text =
            "Traceback (most recent call last):\n"
            "  File \"/usr/lib/python3/dist-packages/composer/trainer/trainer.py\", line 2475, in _train_microbatch\n"
            "    self._eval_train_metrics(device_batch)\n"
            "  File \"/usr/lib/python3/dist-packages/composer/trainer/trainer.py\", line 2171, in _eval_train_metrics\n"
            "    self._original_model.update_metric(\n"
            "  File \"/usr/lib/python3/dist-packages/composer/models/huggingface.py\", line 479, in update_metric\n"
            "    metric.update(outputs, self.labels)\n"
            "  File \"/usr/lib/python3/dist-packages/composer/metrics/nlp.py\", line 121, in update\n"
            "    losses = self.loss_fn(logits, target)\n"
            "  File \"/usr/lib/python3/dist-packages/torch/nn/functional.py\", line 3029, in cross_entropy\n"
            "    return torch._C._nn.cross_entropy_loss(input, target, weight, _Reduction.get_enum(reduction), ignore_index, "
            "label_smoothing)\n"
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 12.30 GiB. GPU 0 has a total capacity of 79.15 GiB "
            "of which 9.80 GiB is free. Of the allocated memory 61.20 GiB is allocated by PyTorch, and 6.90 GiB is reserved by "
            "PyTorch but unallocated.\n";
        const OomLog log = read_oom_log(text, "composer.log");
        QCOMPARE(log.phase, StepPhase::Metrics);
        QCOMPARE(setup_from_log(text, log, "composer.log").scenario.training.logit_metrics, std::int64_t{1});
        Scenario s = default_scenario();
        s.model = gpt2_style(12, 768, 12, 50368, 2048);
        s.cluster.gpu = gpu_preset("a100-80gb");
        s.fsdp.engine = Engine::Fsdp;
        s.zero.stage = 3;
        s.training.seq_len = 512;
        s.training.micro_batch = 128;
        s.training.global_batch = 2048;
        s.training.loss_kernel = LossKernel::Xentropy;
        s.training.outputs_kept = true;
        s.training.logit_metrics = 2;
        const OomDiagnosis d = diagnose_oom(log, s);
        QCOMPARE(d.phase, StepPhase::Metrics);
        const std::vector<StepMoment> t = step_timeline(s, TimelineDetail::PeakCandidates);
        const auto metrics = std::find_if(t.begin(), t.end(), [](const StepMoment& m) { return m.phase == StepPhase::Metrics; });
        QVERIFY(metrics != t.end());
        QCOMPARE(d.planned_bytes.value_or(0), metrics->allocated_bytes());
        QCOMPARE(metrics->activations_bytes, 128.0 * 512 * 50368 * (2 + 6));  // the kept logits and one metric's tensors
        QVERIFY(d.term);
        QCOMPARE(QString::fromStdString(d.term->name),
                 QStringLiteral("a train metric's fp32 copy of the log-probabilities (autocast, for nll_loss)"));
        QVERIFY(std::any_of(d.remedies.begin(), d.remedies.end(),
                            [](const std::string& r) { return r.find("use_train_metrics: false") != std::string::npos; }));
        QVERIFY(std::any_of(d.fixes.begin(), d.fixes.end(),
                            [](const auto& f) { return f.change.find("use_train_metrics") != std::string::npos; }));
    }

    // The torch.optim temporary's fixes include the fused optimizer and ZeRO-3.
    void optimizer_temporary_proposes_fused_or_zero3() {
        const std::string text = read_text_file(test_data_path("oom/trl2776_grpo_foreach_sqrt.log"));
        const OomLog oom = read_oom_log(text, "2776");
        Scenario s = setup_from_log(text, oom, "2776").scenario;
        QVERIFY(!s.training.fused_optimizer);  // the traceback's _multi_tensor_adamw says torch.optim's
        s.model = model_preset("qwen2-7b").spec;
        const OomDiagnosis d = diagnose_oom(oom, s);
        bool fused = false, zero3 = false;
        for (const OomFix& f : d.fixes) {
            fused = fused || (f.scenario.training.fused_optimizer && f.change.find("fused") != std::string::npos);
            zero3 = zero3 || (f.scenario.zero.stage == 3 && f.change.find("ZeRO-3") != std::string::npos);
        }
        QVERIFY(fused);
        QVERIFY(zero3);
    }

    // ZeRO-3's prefetch keeps stage3_max_live_parameters gathered: a ZeRO-3 run out of memory in
    // the backward is offered 1e8 instead of DeepSpeed's 1e9, which needs less where the step
    // peaks among the gathered parameters; not at the optimizer step, where nothing is gathered.
    void zero3_oom_proposes_fewer_live_parameters() {
        // Llama-2 7B on 16 A100s at 2 x 4096 tokens, full recompute: the step peaks at the loss
        // (15.1 GiB must fit, 13.8 with 1e8 live parameters).
        Scenario s = test::preset_scenario("llama-2-7b", "a100-80gb", 16);
        s.zero.stage = 3;
        s.training.micro_batch = 2;
        s.training.auto_micro_batch = false;
        s.training.global_batch = 32;
        s.training.seq_len = 4096;
        s.training.checkpointing = Checkpointing::Full;
        s.training.auto_checkpointing = false;
        const OomDiagnosis d = diagnose_oom(in_step_oom(StepPhase::Backward, 1.0), s);
        const auto live = std::find_if(d.fixes.begin(), d.fixes.end(),
                                       [](const OomFix& f) { return f.change.find("stage3_max_live_parameters") != std::string::npos; });
        QVERIFY(live != d.fixes.end());
        QCOMPARE(live->scenario.zero.stage3_max_live_parameters, 1e8);
        QVERIFY(live->peak_bytes < estimate_memory(s).peak_required_bytes);
        const OomDiagnosis at_step = diagnose_oom(in_step_oom(StepPhase::OptimizerStep, 1.0), s);
        QVERIFY(std::none_of(at_step.fixes.begin(), at_step.fixes.end(),
                             [](const OomFix& f) { return f.change.find("stage3_max_live_parameters") != std::string::npos; }));
    }

    // ZeRO-Infinity's 1T model on one DGX-2 at 7 sequences, untiled, out of memory in the backward
    // (41.5 GiB must fit of 30.1: ZeRO-3 gathers its 25,600 x 102,400 linears whole): the fixes
    // include TiledLinear at the smallest factor that fits, 2 (28.6 GiB), before the paper's 4.
    void wide_layers_propose_tiled_linear() {
        const Scenario s = parse_session(read_text_file(test_data_path("sessions/v23-1t-dgx2-untiled.zplan")), "v23.zplan");
        const OomDiagnosis d = diagnose_oom(in_step_oom(StepPhase::Backward, 5.0), s);
        const auto tiled =
            std::find_if(d.fixes.begin(), d.fixes.end(), [](const OomFix& f) { return f.scenario.zero.linear_tile_factor > 1; });
        QVERIFY(tiled != d.fixes.end());
        QCOMPARE(tiled->scenario.zero.linear_tile_factor, std::int64_t{2});
        QVERIFY(tiled->fits);
        QVERIFY2(tiled->change.find("TiledLinear") != std::string::npos, tiled->change.c_str());
    }
};

ZP_TEST_APPLESS_MAIN(TestOomReports)
#include "tst_oom_reports.moc"
