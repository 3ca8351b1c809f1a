#include "core/presets/gpu_presets.h"

#include "core/base/phrase.h"
#include "core/presets/preset_table.h"

#include <array>
#include <cmath>

namespace zp {

// Links, one direction per GPU. NVLink: the V100, A100 and H100 datasheets give 300, 600 and
// 900 GB/s per GPU counting both directions (NVLink 2, 3, 4; H200 as H100), so 150, 300, 450.
// PCIe x16, per direction: 3.0 16 GB/s, 4.0 32, 5.0 64 (PCI-SIG; ~15.75 GB/s after encoding
// for 3.0, rounded as vendors do). AMD Infinity Fabric: MI250X 800 GB/s peak aggregate per
// package -> 200 per GCD per direction; MI300X 7 links x 64 GB/s = 448 (AMD data sheets).
// Blackwell: NVLink 5, "1.8 TB/s" per GPU (Blackwell datasheet, nvdam.widen.net/s/wwnsxrhm2w)
// -> 900; PCIe 6.0 x16 "256 GB/s" both directions (Blackwell Ultra datasheet) -> 128; MI355X:
// 7 Infinity Fabric links of 153 GB/s counting both directions (AMD MI355X product page) -> 535.5;
// Grace-Blackwell's NVLink-C2C "900GB/s" both directions a superchip of two GPUs -> 225 each (host link).
std::span<const IntraNodeLink> intra_node_links() {
    static constexpr std::array<IntraNodeLink, 12> table{{
        {"PCIe 3.0 x16 (16 GB/s)", links::kPcie3x16},
        {"PCIe 4.0 x16 (32 GB/s)", links::kPcie4x16},
        {"PCIe 5.0 x16 (64 GB/s)", links::kPcie5x16},
        {"PCIe 6.0 x16 (128 GB/s)", links::kPcie6x16},
        {"NVLink 2 (150 GB/s)", links::kNvLink2},
        {"NVLink 3 (300 GB/s)", links::kNvLink3},
        {"NVLink 4 (450 GB/s)", links::kNvLink4},
        {"NVLink 5 (900 GB/s)", links::kNvLink5},
        {"Infinity Fabric (200 GB/s)", links::kInfinityFabricMi250x},
        {"Infinity Fabric (448 GB/s)", links::kInfinityFabricMi300x},
        {"Infinity Fabric (535.5 GB/s)", links::kInfinityFabricMi355x},
        {"NVLink-C2C (225 GB/s)", links::kNvLinkC2cPerGpu},
    }};
    return table;
}

// Sources. Memory: vendor spec sheets (GiB as nvidia-smi / rocm-smi report them).
// TFLOP/s: dense, no sparsity, 16-bit inputs with FP32 accumulate, the rate PyTorch matmuls run at:
//   V100: NVIDIA Tesla V100 datasheet (SXM2 125). A100: A100 datasheet (312). H100: H100 datasheet
//   (SXM 989, PCIe 756). H200: H200 datasheet (989). L40S: L40S datasheet (362). RTX 3090: NVIDIA
//   Ampere GA102 whitepaper Table 9 (71 with FP32 accumulate; its 35.6 is the non-tensor FP32 rate,
//   which the preset carried until 2026-11-28). RTX 4090: Ada Lovelace whitepaper
//   Appendix A (165.2 with FP32 accumulate). A10G: AWS EC2 G5 documentation (~70, A10 silicon at lower
//   clocks). MI250X: AMD Instinct MI250X data sheet (383 per package = 191.5 per GCD; each GCD is one
//   device). MI300X: AMD Instinct MI300X data sheet (1307.4).
//   Blackwell (NVIDIA prints the Tensor Core rates with sparsity: "All other Tensor Core specs are
//   sparse; dense is one-half", Blackwell datasheet footnote): B200 "FP16/BF16 4.5 PFLOPS" -> 2250,
//   180 GB (Blackwell datasheet, HGX B200); the 192 GB part of NVIDIA's GTC 2024 HGX B200 table
//   ("Up to 192 GB HBM3e | Up to 8 TB/s", the same 2250); GB200 "5 PFLOPS" -> 2500, 186 GB
//   (Blackwell datasheet, GB200 NVL72); B300 "4.5 PFLOPS" -> 2250, 270 GB (Blackwell Ultra
//   datasheet, HGX B300; NVIDIA's blog gives the chip's 288 GB); GB300 "5 PFLOPS" -> 2500, 279 GB
//   (Blackwell Ultra datasheet, GB300 NVL72). RTX 5090: RTX Blackwell whitepaper Table 3 (209.5
//   with FP32 accumulate), 32 GB GDDR7. MI325X: AMD MI325X product page (1307.4 dense, 256 GB);
//   MI355X: AMD MI355X brochure ("BF16 2.5166 PF dense"), 288 GB.
//   Memory as nvidia-smi reports it where known (H100 80GB: 81,559 MiB = 79.6 GiB); the Blackwell
//   data-centre parts at the datasheet's GB read as GiB less 0.5%, as the H100's is (assumed: no
//   nvidia-smi total was found); AMD and GeForce parts at the datasheet figure, as the MI300X and
//   RTX 4090 presets are.
// FP8 TFLOP/s (peak_tflops_fp8): dense, E4M3/E5M2 inputs with FP32 accumulate, from the same
//   documents (halved where the vendor prints it with sparsity): H100 SXM "FP8 3,958*" -> 1979, PCIe
//   "3,026*" -> 1513; H200 "3,958*" -> 1979; L40S "733 / 1,466*"; RTX 4090 Ada whitepaper Appendix A
//   v2.02 "FP8 with FP32 Accumulate 330.3"; MI300X and MI325X "FP8 2,614.9" dense; HGX B200 "FP8
//   9 PF*" -> 4500 (the 192 GB part the same); HGX B300 "FP8 72 PFLOPS*" for 8 GPUs -> 4500; GB300
//   NVL72 "FP8 720 PFLOPS*" for 72 -> 5000; GB200 5000 (the datasheet's 2:1 FP8 to its BF16 row,
//   not printed per GPU: assumed); RTX 5090 RTX Blackwell whitepaper Table 3, 419 with FP32
//   accumulate; MI355X 5033.2 (AMD's "FP8 5.0 PF" dense class, the brochure line not seen: assumed).
//   V100, A100, RTX 3090, A10G and MI250X have no FP8 tensor cores (0).
// FP4 TFLOP/s (peak_tflops_fp4): dense, from the same documents as vendors' tables quote them (the
//   vendor pages themselves were not reachable here): HGX B200 "FP4 144 PFLOPS*" for 8 GPUs -> 9000;
//   GB200 10000 (2:1 to its FP8, assumed); HGX B300 "FP4 144 | 105 PFLOPS" (sparse | dense) for 8 ->
//   13125; GB300 NVL72 "1,440 | 1,080 PFLOPS" for 72 -> 15000; RTX 5090 RTX Blackwell whitepaper
//   Table 3, 1676 with FP32 accumulate (3352 sparse); MI355X "MXFP4 10.1 PF" -> 10066.4. Hopper, Ada,
//   Ampere, Volta and MI300-series parts have no FP4 tensor cores (0).
// Links: the named speeds in gpu_presets.h, with their sources above intra_node_links().
const std::vector<GpuSpec>& gpu_presets() {
    using namespace links;
    // The last fields: compute_capability_10 (gpu_spec.h): B200, B300, GB200 and GB300 are sm_100/sm_103
    // (CUDA's compute capability table); the RTX 5090 is sm_120. peak_tflops_fp4: see FP4 above.
    static const std::vector<GpuSpec> presets = {
        {"v100-16gb", "V100 16GB (SXM2)", 16.0, 125.0, kNvLink2, kPcie3x16},
        {"v100-32gb", "V100 32GB (SXM2)", 32.0, 125.0, kNvLink2, kPcie3x16},
        {"a100-40gb", "A100 40GB (SXM)", 40.0, 312.0, kNvLink3, kPcie4x16},
        {"a100-80gb", "A100 80GB (SXM)", 80.0, 312.0, kNvLink3, kPcie4x16},
        {"h100-80gb", "H100 80GB (SXM)", 79.6, 989.0, kNvLink4, kPcie5x16, 1979.0},  // 81559 MiB
        {"h100-pcie", "H100 80GB (PCIe)", 79.6, 756.0, kPcie5x16, kPcie5x16, 1513.0},
        {"h200-141gb", "H200 141GB (SXM)", 140.4, 989.0, kNvLink4, kPcie5x16, 1979.0},  // 143771 MiB
        {"l40s", "L40S 48GB", 45.0, 362.0, kPcie4x16, kPcie4x16, 733.0},                // 46068 MiB
        {"rtx-3090", "GeForce RTX 3090 24GB", 24.0, 71.0, kPcie4x16, kPcie4x16},
        {"rtx-4090", "GeForce RTX 4090 24GB", 24.0, 165.2, kPcie4x16, kPcie4x16, 330.3},
        {"a10g", "A10G 24GB (AWS)", 22.5, 70.0, kPcie4x16, kPcie4x16},  // 23028 MiB
        {"mi250x", "MI250X (one 64GB GCD)", 64.0, 191.5, kInfinityFabricMi250x, kPcie4x16},
        {"mi300x", "MI300X 192GB", 192.0, 1307.4, kInfinityFabricMi300x, kPcie5x16, 2614.9},
        {"b200", "B200 180GB (HGX/DGX)", 179.1, 2250.0, kNvLink5, kPcie5x16, 4500.0, true, 9000.0},
        {"b200-192gb", "B200 192GB (early spec)", 191.0, 2250.0, kNvLink5, kPcie5x16, 4500.0, true, 9000.0},
        {"gb200", "GB200 186GB (NVL72)", 185.1, 2500.0, kNvLink5, kNvLinkC2cPerGpu, 5000.0, true, 10000.0},
        {"b300", "B300 270GB (HGX)", 268.6, 2250.0, kNvLink5, kPcie6x16, 4500.0, true, 13125.0},
        {"gb300", "GB300 279GB (NVL72)", 277.6, 2500.0, kNvLink5, kNvLinkC2cPerGpu, 5000.0, true, 15000.0},
        {"rtx-5090", "GeForce RTX 5090 32GB", 32.0, 209.5, kPcie5x16, kPcie5x16, 419.0, false, 1676.0},
        {"mi325x", "MI325X 256GB", 256.0, 1307.4, kInfinityFabricMi300x, kPcie5x16, 2614.9},
        {"mi355x", "MI355X 288GB", 288.0, 2516.6, kInfinityFabricMi355x, kPcie5x16, 5033.2, false, 10066.4},
    };
    return presets;
}

namespace {

// Where each row of gpu_presets() comes from, as data: `zero-planner presets` lists it. Each is
// the citation of the comments above (and of the bandwidth table below), in the order of
// gpu_presets() (tests/core/tst_preset_sources checks that every preset has one).
// clang-format off
constexpr std::array<PresetSource, 21> kGpuSources{{
    {"v100-16gb",  "NVIDIA Tesla V100 datasheet (SXM2: 125 TFLOP/s, 900 GB/s HBM2, NVLink 2 300 GB/s both directions)"},
    {"v100-32gb",  "NVIDIA Tesla V100 datasheet (SXM2: 125 TFLOP/s, 900 GB/s HBM2, NVLink 2 300 GB/s both directions)"},
    {"a100-40gb",  "NVIDIA A100 datasheet (SXM 40GB: 312 TFLOP/s, 1555 GB/s HBM2, NVLink 3 600 GB/s both directions)"},
    {"a100-80gb",  "NVIDIA A100 datasheet (SXM 80GB: 312 TFLOP/s, 2039 GB/s HBM2e, NVLink 3 600 GB/s both directions)"},
    {"h100-80gb",  "NVIDIA H100 datasheet (SXM: 989 TFLOP/s, 3350 GB/s, NVLink 4 900 GB/s both directions); 81,559 MiB as nvidia-smi reports it; FP8 3,958 TFLOP/s sparse = 1979 dense"},
    {"h100-pcie",  "NVIDIA H100 datasheet (PCIe: 756 TFLOP/s, 2000 GB/s); PCIe 5.0 x16 (PCI-SIG); FP8 3,026 sparse = 1513 dense"},
    {"h200-141gb", "NVIDIA H200 datasheet (989 TFLOP/s, 4800 GB/s, NVLink as the H100's); 143,771 MiB as nvidia-smi reports it; FP8 3,958 sparse = 1979 dense"},
    {"l40s",       "NVIDIA L40S datasheet (362 TFLOP/s, 864 GB/s); 46,068 MiB as nvidia-smi reports it; FP8 733 dense"},
    {"rtx-3090",   "NVIDIA Ampere GA102 whitepaper Table 9 (Peak FP16 and BF16 Tensor TFLOPS with FP32 Accumulate 71 dense, 142 with sparsity; 936 GB/s; its FP32 non-Tensor 35.6 is the fp32 figure)"},
    {"rtx-4090",   "NVIDIA Ada Lovelace whitepaper Appendix A (165.2 TFLOP/s with FP32 accumulate, 1008 GB/s); FP8 330.3 with FP32 accumulate (whitepaper v2.02)"},
    {"a10g",       "AWS EC2 G5 documentation (~70 TFLOP/s: A10 silicon at lower clocks); NVIDIA A10 datasheet (600 GB/s); 23,028 MiB"},
    {"mi250x",     "AMD Instinct MI250X data sheet (383 TFLOP/s, 3276.8 GB/s and 800 GB/s Infinity Fabric a package; one GCD is half)"},
    {"mi300x",     "AMD Instinct MI300X data sheet (1307.4 TFLOP/s, 5300 GB/s, 7 Infinity Fabric links x 64 GB/s); FP8 2614.9 dense"},
    {"b200",       "NVIDIA Blackwell datasheet, HGX B200 (FP16/BF16 4.5 PFLOPS sparse = 2250 dense, 180 GB, 7700 GB/s, NVLink 5 1.8 TB/s); GiB: the GB less 0.5%, assumed (no nvidia-smi total found); FP8 9 PF sparse = 4500 dense; FP4 144 PF sparse for 8 GPUs = 9000 dense"},
    {"b200-192gb", "NVIDIA GTC 2024 HGX B200 table (up to 192 GB HBM3e, up to 8 TB/s; 2250 TFLOP/s dense); GiB: the GB less 0.5%, assumed (no nvidia-smi total found); FP8 4500 dense and FP4 9000 dense, as the 180 GB part"},
    {"gb200",      "NVIDIA Blackwell datasheet, GB200 NVL72 (5 PFLOPS sparse = 2500 dense, 186 GB, 8000 GB/s); NVLink-C2C 900 GB/s a superchip; GiB: the GB less 0.5%, assumed (no nvidia-smi total found); FP8 5000 dense, assumed at the datasheet 2:1 ratio to BF16; FP4 10000 dense, assumed 2:1 to FP8"},
    {"b300",       "NVIDIA Blackwell Ultra datasheet, HGX B300 (4.5 PFLOPS sparse = 2250 dense, 270 GB, 7700 GB/s, PCIe 6.0); GiB: the GB less 0.5%, assumed (no nvidia-smi total found); FP8 72 PFLOPS sparse for 8 GPUs = 4500 dense; FP4 105 PFLOPS dense for 8 = 13125"},
    {"gb300",      "NVIDIA Blackwell Ultra datasheet, GB300 NVL72 (5 PFLOPS sparse = 2500 dense, 279 GB, 8000 GB/s); GiB: the GB less 0.5%, assumed (no nvidia-smi total found); FP8 720 PFLOPS sparse for 72 GPUs = 5000 dense; FP4 1,080 PFLOPS dense for 72 = 15000"},
    {"rtx-5090",   "NVIDIA RTX Blackwell whitepaper Table 3 (209.5 TFLOP/s with FP32 accumulate, 32 GB GDDR7, 1792 GB/s); FP8 419 and FP4 1676 with FP32 accumulate"},
    {"mi325x",     "AMD Instinct MI325X product page (1307.4 TFLOP/s dense, 256 GB, 6000 GB/s); FP8 2614.9 dense"},
    {"mi355x",     "AMD Instinct MI355X brochure (BF16 2.5166 PF dense, 288 GB) and product page (8000 GB/s, 7 Infinity Fabric links of 153 GB/s); FP8 5033.2 dense, assumed (AMD's 5.0 PF class); MXFP4 10.1 PF = 10066.4 dense"},
}};
// clang-format on

}  // namespace

const char* gpu_source(std::string_view name) { return find_source(kGpuSources, name); }

namespace {

struct TraitsRow {
    const char* preset;
    GpuTimeTraits traits;
};

// HBM (or GDDR) bandwidth, GB/s, from the vendor datasheets: Tesla V100 SXM2 900; A100 40GB SXM
// 1555, A100 80GB SXM 2039 (A100 datasheet); H100 SXM 3350, H100 PCIe 2000 (H100 datasheet);
// H200 4800 (H200 datasheet); L40S 864 (L40S datasheet); RTX 3090 936 (GA102 whitepaper Table
// 9); RTX 4090 1008 (Ada whitepaper Appendix A); A10G 600 (NVIDIA A10 datasheet, same GA102
// memory system); MI250X 3276.8 per package = 1638.4 per GCD (AMD MI250X data sheet); MI300X
// 5300 (AMD MI300X data sheet); B200 7700 and B300 7700 (Blackwell and Blackwell Ultra datasheets,
// HGX), the 192 GB B200 8000 (GTC 2024 table), GB200 and GB300 8000 (the datasheets, NVL72); RTX
// 5090 1792 (RTX Blackwell whitepaper); MI325X 6000, MI355X 8000 (AMD product pages).
//
// GEMM efficiency: the fraction of the dense peak a training step's matmuls reach. FITTED per
// generation, and only where the validation set (tests/data/anchors/measured_runs.json,
// paper_throughput.json) has runs: Volta to every V100 step-time row of the first set and the
// published table (the ZeRO, ZeRO-Offload, ZeRO++ and DeepSpeed-Chat runs, the ZeRO, ZeRO++ and
// ZeRO-Infinity figures: 29 rows, tests/data/anchors/fitted_constants.json) and the second set's
// V100 row: 0.52, what `validate --holdout` re-fits it to on all 30 (0.518, the same without N10's;
// 0.503-0.523 without any one source, 0.503 without the ZeRO tutorial's). The rows disagree by more
// than the fit can settle: at 0.52 the ZeRO tutorial's ZeRO-Offload run (M06) and the
// ZeRO-Infinity 32-node rows come within 15% and ZeRO-Infinity's 10B (P48, 1.26) falls out; until
// 2026-11-28 the code kept 0.45 to keep it and the ZeRO++ tutorial's ZeRO++ run (M13: 0.82 at 0.52
// until the tutorial's DeepSpeed release was modelled, 1.03 since) in, and the re-fit scaled every
// compute term instead of the GEMMs alone (0.505).
// Ampere (A100) to M47, M50 and Narayanan et al. 2021 Table 1's first row. Consumer Ampere and
// Ada (GA102, AD102: the RTX 3090, 4090, L40S, A10G) and GeForce Blackwell take the A100's
// fitted value: the same third- and fourth-generation tensor cores, each part against its own
// FP32-accumulate peak. Until 2026-11-28 they were assumed at 0.60, which put every RTX 4090 time
// of Answer.AI's fsdp_qlora benchmarks 1.1-1.4x too slow (core.tst_validation
// fsdp_qlora_benchmarks, which checks them and was not fitted to: they favour about 0.75).
// Hopper (H100, H200) to every H100 step-time row: every one-node row of llm-foundry's MPT benchmark
// table 'H100 80GB BF16' (measured_runs_3.json LH01-LH37, 512 to 65,536 tokens, their attention
// timed as the MPT Triton kernel they ran: compute_time.h kTritonFlashShare) and the
// bf16_master_weight README's two hook-bound rows: 0.57, their fit (0.565). Assumed at 0.60 until
// 2026-11-30. The same tables' A100 rows (LA01-LA59) pull every Ampere row's fit to 0.718 (0.692
// without them); the code keeps 0.70.
// The others are ASSUMED, not fitted (no public run of theirs is in the set): CDNA 2/3 0.45 (ROCm
// GEMMs reach about half of the quoted peak). docs/design.md lists the fits.
constexpr double kVoltaGemm = 0.52;
constexpr double kAmpereGemm = 0.70;
constexpr double kHopperGemm = 0.57;
constexpr double kConsumerGemm = kAmpereGemm;
constexpr double kCdnaGemm = 0.45;
// Blackwell: no public run in the set; Hopper's fitted share, assumed (0.60 until 2026-11-30).
constexpr double kBlackwellGemm = kHopperGemm;

// Flash attention's efficiency: the fraction of the dense 16-bit peak that FlashAttention-2's
// kernels reach in a training step, forward and backward, with a causal mask's FLOPs counted as
// half (the blocks it skips). Not fitted: on the A100 0.56, the 0.8 of the GEMM rate the planner
// took for every GPU until 2026-11-30, inside FlashAttention-2's own figures (Dao 2023: 50-73% of
// the peak, abstract; up to 73% forward and 63% backward, Sec. 1); on the H100 0.35, FlashAttention-
// 3's figure for FlashAttention-2 (Shah et al. 2024, abstract: "achieving only 35% utilization on
// the H100 GPU", as it does not use Hopper's asynchronous tensor-core instructions; FlashAttention-
// 2's Fig. 7, 335 of 989 TFLOP/s, says the same; 0.8 of Hopper's GEMM rate was 0.48). Both are
// FlashAttention-2's: FlashAttention-3 on Hopper reaches about twice that, which the planner does
// not time. Elsewhere ASSUMED at 0.8 of the GEMM efficiency, as before, Blackwell included.
// MPT's Triton kernel, which llm-foundry's benchmark tables ran, reaches 0.55 of these
// (compute_time.h kTritonFlashShare).
constexpr double kFlashShareOfGemm = 0.8;
constexpr double kAmpereFlash = 0.56;
constexpr double kHopperFlash = 0.35;
constexpr double kVoltaFlash = kFlashShareOfGemm * kVoltaGemm;
constexpr double kConsumerFlash = kFlashShareOfGemm * kConsumerGemm;
constexpr double kCdnaFlash = kFlashShareOfGemm * kCdnaGemm;
constexpr double kBlackwellFlash = kFlashShareOfGemm * kBlackwellGemm;

// FP32 without TF32 (GpuTimeTraits::fp32_tflops), dense TFLOP/s, from the same datasheets:
// Tesla V100 SXM2 15.7 ("single-precision"); A100 19.5 ("FP32"); H100 SXM 67, H100 PCIe 51;
// H200 67; L40S 91.6; RTX 3090 35.6 (GA102 whitepaper Table 9, "peak FP32"); RTX 4090 82.6 (Ada
// whitepaper Appendix A); A10G: the A10's 31.2 scaled as its 16-bit figure is (70 of 125), 17.5,
// ASSUMED (AWS prints neither); AMD's FP32 matrix rate, which rocBLAS/hipBLASLt fp32 GEMMs run on:
// MI250X 95.7 per package = 47.9 per GCD, MI300X and MI325X 163.4, MI355X 157.3 (AMD data sheets);
// HGX B200 75 and GB200 80 (NVIDIA's GB200 NVL72 / HGX B200 specifications, "FP32"), the 192 GB
// B200 as HGX; B300 75 and GB300 80, ASSUMED as B200's (Blackwell Ultra keeps the SM's FP32 units);
// RTX 5090 104.8 (RTX Blackwell whitepaper Table 3). Volta has no bf16 tensor cores (compute
// capability 7.0; bf16 tensor-core MMA arrives with 8.0, CUDA Programming Guide's
// warp matrix functions): PyTorch still runs bf16 there (torch.cuda.is_bf16_supported counts
// emulation, and DeepSpeed accepts the bf16 block) on the FP32 units.
// clang-format off
constexpr std::array<TraitsRow, 21> kTraits{{
    {"v100-16gb",  {900,    kVoltaGemm,    kVoltaFlash,    "Volta",              15.7,  false}},
    {"v100-32gb",  {900,    kVoltaGemm,    kVoltaFlash,    "Volta",              15.7,  false}},
    {"a100-40gb",  {1555,   kAmpereGemm,   kAmpereFlash,   "Ampere",             19.5,  true}},
    {"a100-80gb",  {2039,   kAmpereGemm,   kAmpereFlash,   "Ampere",             19.5,  true}},
    {"h100-80gb",  {3350,   kHopperGemm,   kHopperFlash,   "Hopper",             67.0,  true}},
    {"h100-pcie",  {2000,   kHopperGemm,   kHopperFlash,   "Hopper",             51.0,  true}},
    {"h200-141gb", {4800,   kHopperGemm,   kHopperFlash,   "Hopper",             67.0,  true}},
    {"l40s",       {864,    kConsumerGemm, kConsumerFlash, "Ada",                91.6,  true}},
    {"rtx-3090",   {936,    kConsumerGemm, kConsumerFlash, "Ampere (GA102)",     35.6,  true}},
    {"rtx-4090",   {1008,   kConsumerGemm, kConsumerFlash, "Ada",                82.6,  true}},
    {"a10g",       {600,    kConsumerGemm, kConsumerFlash, "Ampere (GA102)",     17.5,  true}},
    {"mi250x",     {1638.4, kCdnaGemm,     kCdnaFlash,     "CDNA 2",             47.9,  true}},
    {"mi300x",     {5300,   kCdnaGemm,     kCdnaFlash,     "CDNA 3",             163.4, true}},
    {"b200",       {7700,   kBlackwellGemm,kBlackwellFlash,"Blackwell",          75.0,  true}},
    {"b200-192gb", {8000,   kBlackwellGemm,kBlackwellFlash,"Blackwell",          75.0,  true}},
    {"gb200",      {8000,   kBlackwellGemm,kBlackwellFlash,"Blackwell",          80.0,  true}},
    {"b300",       {7700,   kBlackwellGemm,kBlackwellFlash,"Blackwell Ultra",    75.0,  true}},
    {"gb300",      {8000,   kBlackwellGemm,kBlackwellFlash,"Blackwell Ultra",    80.0,  true}},
    {"rtx-5090",   {1792,   kConsumerGemm, kConsumerFlash, "Blackwell (GB202)",  104.8, true}},
    {"mi325x",     {6000,   kCdnaGemm,     kCdnaFlash,     "CDNA 3",             163.4, true}},
    {"mi355x",     {8000,   kCdnaGemm,     kCdnaFlash,     "CDNA 4",             157.3, true}},
}};
// clang-format on

// A GPU none of the presets is: bandwidth and FP32 in proportion to its peak at the A100's ratios
// (2039 GB/s and 19.5 TFLOP/s for 312 TFLOP/s), Ampere's efficiencies, bf16 tensor cores.
GpuTimeTraits generic_traits(const GpuSpec& g) {
    return {g.peak_tflops_16bit * 2039.0 / 312.0, kAmpereGemm, kAmpereFlash, "unknown", g.peak_tflops_16bit * 19.5 / 312.0, true};
}

}  // namespace

GpuTimeTraits gpu_time_traits(const GpuSpec& g) {
    // kTraits is in the order of gpu_presets() (tests/core/tst_step_time checks it).
    const std::vector<GpuSpec>& presets = gpu_presets();
    // The peak first: a cheap test that rules out most presets before the name is compared.
    for (std::size_t i = 0; i < presets.size() && i < kTraits.size(); ++i)
        if (presets[i].peak_tflops_16bit == g.peak_tflops_16bit && g.name == presets[i].name) return kTraits[i].traits;
    for (std::size_t i = 0; i < presets.size() && i < kTraits.size(); ++i)
        if (g.name == presets[i].name) return kTraits[i].traits;  // a preset's name with an edited peak
    // A custom GPU keeps the throughput of the preset it came from: find that preset by its peak,
    // and among presets of the same peak by the nearest memory. The A100 40GB and 80GB share the
    // 312 TFLOP/s peak but not the memory system (HBM2 1555 GB/s, HBM2e 2039 GB/s: A100
    // datasheet), and an 80GB card read as the 79.15 GiB torch reports is the 80GB part.
    std::size_t best = kTraits.size();
    for (std::size_t i = 0; i < presets.size() && i < kTraits.size(); ++i)
        if (presets[i].peak_tflops_16bit == g.peak_tflops_16bit &&
            (best == kTraits.size() || std::abs(presets[i].memory_gib - g.memory_gib) < std::abs(presets[best].memory_gib - g.memory_gib)))
            best = i;
    return best < kTraits.size() ? kTraits[best].traits : generic_traits(g);
}

Precision precision_for_gpu(Precision wanted, const GpuSpec& gpu) {
    return wanted == Precision::Bf16 && !gpu_time_traits(gpu).bf16_tensor_cores ? Precision::Fp16 : wanted;
}

const char* gpu_time_traits_preset(std::size_t i) { return i < kTraits.size() ? kTraits[i].preset : ""; }

std::string gpu_preset_names() { return preset_names(gpu_presets()); }

const GpuSpec& gpu_preset(std::string_view name) { return find_preset(gpu_presets(), name, "GPU", "GPUs"); }

namespace {
constexpr std::array<const char*, 5> kFamilies{"NVIDIA Blackwell", "NVIDIA Hopper", "NVIDIA Ampere and Volta",
                                               QT_TRANSLATE_NOOP("Core", "Workstation and consumer GPUs"), "AMD Instinct"};
struct FamilyRow {
    const char* preset;
    std::size_t family;  // index in kFamilies
};
// By the vendor's own naming: the data-centre parts by architecture (the datasheets above), the
// GeForce, L40S and A10G cards as workstation and consumer GPUs, AMD's Instinct accelerators.
constexpr std::array<FamilyRow, 21> kFamilyOf{{
    {"v100-16gb", 2},  {"v100-32gb", 2}, {"a100-40gb", 2}, {"a100-80gb", 2}, {"h100-80gb", 1}, {"h100-pcie", 1}, {"h200-141gb", 1},
    {"l40s", 3},       {"rtx-3090", 3},  {"rtx-4090", 3},  {"a10g", 3},      {"mi250x", 4},    {"mi300x", 4},    {"b200", 0},
    {"b200-192gb", 0}, {"gb200", 0},     {"b300", 0},      {"gb300", 0},     {"rtx-5090", 3},  {"mi325x", 4},    {"mi355x", 4},
}};
}  // namespace

const char* gpu_family(std::string_view gpu_name) {
    for (const FamilyRow& r : kFamilyOf)
        if (gpu_name == r.preset) return kFamilies[r.family];
    return "";
}

std::span<const char* const> gpu_families() { return kFamilies; }

double fp8_weight_copy_bytes_per_param(const GpuSpec& g, Fp8Scaling scaling) {
    if (!(g.peak_tflops_fp8 > 0)) return 0.0;
    if (scaling == Fp8Scaling::Mxfp8) return 2.0 * (1.0 + 1.0 / 32.0);
    return g.compute_capability_10 ? 1.0 : 2.0;
}

}  // namespace zp
