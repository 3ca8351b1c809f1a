#include "core/presets/cluster_presets.h"

#include "core/base/units.h"
#include "core/hardware/host_rates.h"
#include "core/presets/preset_table.h"

#include <array>

namespace zp {
namespace {

Cluster node(const char* gpu, std::int64_t gpus, double inter_gbits, std::int64_t nics, double ram_gib, double nvme_gib,
             double nvme_gbytes_per_s, double host_memory_gbytes_per_s) {
    Cluster c;
    c.cpu_adam_params_per_second = host_rates::cpu_adam_params_per_second(host_memory_gbytes_per_s);
    c.use_gpu(gpu_preset(gpu));
    c.gpus_per_node = gpus;
    c.inter_node_gbits_per_s = inter_gbits;
    c.nics_per_node = nics;
    c.cpu_ram_bytes_per_node = gib_to_bytes(ram_gib);
    c.nvme_bytes_per_node = gib_to_bytes(nvme_gib);
    c.nvme_gbytes_per_s = nvme_gbytes_per_s;
    return c;
}

// Sources: NVIDIA DGX A100 user guide (8x A100 80GB, 8x 200 Gb/s HDR for compute, 2 TB RAM,
// 30 TB NVMe in the 640GB system); DGX H100 user guide (8x H100 SXM, 8x 400 Gb/s NDR, 2 TB RAM,
// 8x 3.84 TB NVMe); DGX-2 data sheet (16x V100 32GB, 8x 100 Gb/s EDR, 1.5 TB RAM, 30 TB NVMe).
// NICs: the DGX A100 and H100 have one compute NIC per GPU (nics 0), the DGX-2 one per two GPUs;
// the 4090 server one 100 Gb/s NIC.
// NVMe throughput: PCIe 4.0 U.2 drives read ~6-7 GB/s each, aggregated across a RAID-0 of 4-8;
// ZeRO-Infinity (arXiv 2104.07857 Sec. 7) reports ~25 GB/s on a DGX-2. The 4090 box and the
// workstation are typical builds, not a vendor SKU: edit RAM and NVMe to match yours.
// Host memory bandwidth (CPU Adam's rate, core/hardware/host_rates.h), channels x MT/s x 8 bytes:
// DGX A100 2x AMD EPYC 7742, 8 channels DDR4-3200 each = 409.6 GB/s; DGX H100 2x Xeon Platinum
// 8480C, 8 channels DDR5-4800 each = 614.4 GB/s; DGX-2 2x Xeon Platinum 8168, 6 channels
// DDR4-2666 each = 256 GB/s (vendor CPU spec sheets); the 4090 server one 8-channel DDR4-3200
// socket = 204.8 GB/s; the workstation 2 channels DDR5-5600 = 89.6 GB/s.
// DGX H200 (DGX BasePOD reference architecture, docs.nvidia.com: "2 TB of DDR5 system memory",
// 8x ConnectX-7 400 Gb/s for compute, 8x 3.84 TB NVMe; the DGX H100's 2x Xeon 8480C).
// DGX B200 (DGX B200 user guide, docs.nvidia.com: "2 TB using 32 x DIMMs", 8x ConnectX-7 400 Gb/s,
// data drives 8x 3.84 TB U.2; 2x Xeon Platinum 8570, 8 channels DDR5-5600 each = 716.8 GB/s).
// HGX B300 as DGX B300 builds it (DGX B300 user guide, docs.nvidia.com: 8x ConnectX-8 800 Gb/s on
// the GPU tray, 2 TB of system memory, 8x 3.84 TB E3.S NVMe; 2x Xeon 6776P, 8 channels DDR5-6400
// each = 819.2 GB/s, Intel's Xeon 6 spec; the host as an HGX B300 OEM server usually has it).
// GB200 NVL72 and GB300 NVL72: one NVLink domain of 72 GPUs, which the planner takes as one node
// of 72 (tensor, expert and Ulysses groups may span it): 36 Grace CPUs of 480 GB LPDDR5X each
// (GB200 table at GTC 2024: "Up to 480GB LPDDR5X | Up to 512 GB/s" a superchip; GB300 trays "960
// GiB LPDDR5X (2x 480 GiB)"), one NIC a GPU: ConnectX-7 400 Gb/s (GB200), ConnectX-8 800 Gb/s
// ("each GPU generating 800 Gb/s", GB300 NVL72 page); the racks' NVMe is not published (0: set
// --nvme); GB300's host bandwidth is taken as GB200's (assumed). 8x MI300X platform: AMD's CDNA 3 whitepaper gives the GPUs and xGMI only; its host (2 TB,
// 8x 400 Gb/s, 8x 3.84 TB, 2x 12-channel DDR5-4800 = 921.6 GB/s) is a typical OEM build, ASSUMED.
// The RTX 5090 workstation is a typical build like the 4090 one. The two-GPU workstation is the
// machine of Answer.AI's FSDP + QLoRA benchmarks ("two 3090s without NVLink, 128GB CPU RAM",
// fsdp_qlora benchmarks_03_2024.md; their 4090 rerun the same), built like the one-GPU workstation.
// The four-GPU workstation is a typical Threadripper PRO build (one socket, 8 channels DDR5-5200 =
// 332.8 GB/s, 256 GB, 2x 1.9 TB NVMe), not a vendor SKU: edit RAM and NVMe to match yours.
std::vector<ClusterPreset> build() {
    return {
        {"dgx-a100", "DGX A100 (8x A100 80GB)", node("a100-80gb", 8, 1600, 0, 2048, 30720, 25, 409.6)},
        {"dgx-h100", "DGX H100 (8x H100 SXM)", node("h100-80gb", 8, 3200, 0, 2048, 30720, 50, 614.4)},
        {"dgx-h200", "DGX H200 (8x H200)", node("h200-141gb", 8, 3200, 0, 2048, 30720, 50, 614.4)},
        {"dgx-b200", "DGX B200 (8x B200)", node("b200", 8, 3200, 0, 2048, 30720, 50, 716.8)},
        {"hgx-b300", "HGX B300 (8x B300)", node("b300", 8, 6400, 0, 2048, 30720, 50, 819.2)},
        {"gb200-nvl72", "GB200 NVL72 (72x GB200)", node("gb200", 72, 28800, 0, 16093, 0, 1, 18432)},
        {"gb300-nvl72", "GB300 NVL72 (72x GB300)", node("gb300", 72, 57600, 0, 17280, 0, 1, 18432)},
        {"mi300x-8", "8x MI300X (OAM)", node("mi300x", 8, 3200, 0, 2048, 30720, 50, 921.6)},
        {"dgx-2", "DGX-2 (16x V100 32GB)", node("v100-32gb", 16, 800, 8, 1536, 30720, 25, 256)},
        {"rtx4090-box", "8x RTX 4090 PCIe server", node("rtx-4090", 8, 100, 1, 512, 3800, 7, 204.8)},
        {"workstation", "Workstation (1x RTX 4090)", node("rtx-4090", 1, 10, 1, 128, 1900, 7, 89.6)},
        {"workstation-2x4090", "Workstation (2x RTX 4090)", node("rtx-4090", 2, 10, 1, 128, 1900, 7, 89.6)},
        {"workstation-4x4090", "Workstation (4x RTX 4090)", node("rtx-4090", 4, 10, 1, 256, 3800, 7, 332.8)},
        {"workstation-5090", "Workstation (1x RTX 5090)", node("rtx-5090", 1, 10, 1, 128, 1900, 7, 89.6)},
    };
}

// Where each node of build() comes from, as data: `zero-planner presets` lists it. Each is the
// citation of the comment above build(); "typical build, not a vendor SKU" and "assumed" where
// that comment says so (tests/core/tst_preset_sources checks that every preset has one).
// clang-format off
constexpr std::array<PresetSource, 14> kClusterSources{{
    {"dgx-a100",           "NVIDIA DGX A100 user guide (8x A100 80GB, 8x 200 Gb/s HDR, 2 TB RAM, 30 TB NVMe); 2x AMD EPYC 7742, DDR4-3200 (AMD spec sheet)"},
    {"dgx-h100",           "NVIDIA DGX H100 user guide (8x H100 SXM, 8x 400 Gb/s NDR, 2 TB RAM, 8x 3.84 TB NVMe); 2x Xeon Platinum 8480C, DDR5-4800 (Intel spec sheet)"},
    {"dgx-h200",           "NVIDIA DGX BasePOD reference architecture (2 TB DDR5, 8x ConnectX-7 400 Gb/s, 8x 3.84 TB NVMe); the DGX H100's 2x Xeon 8480C"},
    {"dgx-b200",           "NVIDIA DGX B200 user guide (2 TB in 32 DIMMs, 8x ConnectX-7 400 Gb/s, 8x 3.84 TB U.2); 2x Xeon Platinum 8570, DDR5-5600"},
    {"hgx-b300",           "NVIDIA DGX B300 user guide (8x ConnectX-8 800 Gb/s, 2 TB, 8x 3.84 TB E3.S NVMe); 2x Xeon 6776P, DDR5-6400 (Intel Xeon 6 spec)"},
    {"gb200-nvl72",        "NVIDIA GTC 2024 GB200 table (480 GB LPDDR5X and 512 GB/s a Grace CPU, 36 of them); one ConnectX-7 400 Gb/s a GPU; NVMe not published (0)"},
    {"gb300-nvl72",        "NVIDIA GB300 NVL72 page (800 Gb/s a GPU; trays of 2x 480 GiB LPDDR5X); host bandwidth as GB200's (assumed); NVMe not published (0)"},
    {"mi300x-8",           "AMD CDNA 3 whitepaper (8x MI300X OAM, xGMI); the host (2 TB, 8x 400 Gb/s, 8x 3.84 TB NVMe, 2x 12-channel DDR5-4800) assumed: a typical OEM build"},
    {"dgx-2",              "NVIDIA DGX-2 data sheet (16x V100 32GB, 8x 100 Gb/s EDR, 1.5 TB RAM, 30 TB NVMe); ~25 GB/s NVMe (ZeRO-Infinity, arXiv 2104.07857 Sec. 7); 2x Xeon 8168"},
    {"rtx4090-box",        "typical build, not a vendor SKU (one 100 Gb/s NIC, one 8-channel DDR4-3200 socket): edit RAM and NVMe to match yours"},
    {"workstation",        "typical build, not a vendor SKU (2 channels DDR5-5600): edit RAM and NVMe to match yours"},
    {"workstation-2x4090", "Answer.AI FSDP + QLoRA benchmarks' machine (fsdp_qlora benchmarks_03_2024.md: two GPUs without NVLink, 128 GB RAM), built like the workstation"},
    {"workstation-4x4090", "typical Threadripper PRO build, not a vendor SKU (8 channels DDR5-5200, 256 GB, 2x 1.9 TB NVMe): edit RAM and NVMe to match yours"},
    {"workstation-5090",   "typical build, not a vendor SKU, like the RTX 4090 workstation: edit RAM and NVMe to match yours"},
}};
// clang-format on

}  // namespace

const std::vector<ClusterPreset>& cluster_presets() {
    static const std::vector<ClusterPreset> presets = build();
    return presets;
}

std::string cluster_preset_names() { return preset_names(cluster_presets()); }

const ClusterPreset& cluster_preset(std::string_view name) { return find_preset(cluster_presets(), name, "cluster", "clusters"); }

const char* cluster_source(std::string_view name) { return find_source(kClusterSources, name); }

bool is_run_of(const Cluster& c, const ClusterPreset& p) {
    Cluster node = c;
    node.nodes = 1;
    if (c.nodes == 1 && c.gpus_per_node < p.cluster.gpus_per_node) node.gpus_per_node = p.cluster.gpus_per_node;
    return node == p.cluster;
}

const ClusterPreset* cluster_preset_of(const Cluster& c) {
    for (const ClusterPreset& p : cluster_presets())
        if (is_run_of(c, p)) return &p;
    return nullptr;
}

const ClusterPreset* usual_node(std::string_view gpu_name, std::int64_t gpus) {
    const ClusterPreset* holds = nullptr;  // the smallest node with room for `gpus`
    const ClusterPreset* largest = nullptr;
    for (const ClusterPreset& p : cluster_presets()) {
        if (p.cluster.gpu.name != gpu_name) continue;
        const std::int64_t size = p.cluster.gpus_per_node;
        if (size >= gpus && (!holds || size < holds->cluster.gpus_per_node)) holds = &p;
        if (!largest || size > largest->cluster.gpus_per_node) largest = &p;
    }
    return holds ? holds : largest;
}

const ClusterPreset* host_of_other_node(const Cluster& c) {
    const ClusterPreset* other = nullptr;
    for (const ClusterPreset& p : cluster_presets()) {
        const Cluster& n = p.cluster;
        if (n.cpu_ram_bytes_per_node != c.cpu_ram_bytes_per_node || n.nvme_bytes_per_node != c.nvme_bytes_per_node ||
            n.inter_node_gbits_per_s != c.inter_node_gbits_per_s)
            continue;
        if (n.gpu.name == c.gpu.name) return nullptr;
        if (!other) other = &p;
    }
    return other;
}

}  // namespace zp
