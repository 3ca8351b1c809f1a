<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Autosave</name>
    <message>
        <source>Restore Unsaved Work</source>
        <translation>恢复未保存的工作</translation>
    </message>
    <message>
        <source>ZeRO Planner did not quit normally. Restore the unsaved edits?</source>
        <translation>ZeRO Planner 上次没有正常退出。要恢复未保存的修改吗？</translation>
    </message>
    <message>
        <source>ZeRO Planner did not quit normally. Restore the unsaved edits to %1?</source>
        <translation>ZeRO Planner 上次没有正常退出。要恢复对 %1 的未保存修改吗？</translation>
    </message>
    <message>
        <source>Discard deletes them.</source>
        <translation>选择“丢弃”将删除这些修改。</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>丢弃(&amp;D)</translation>
    </message>
    <message>
        <source>Restore unsaved edits</source>
        <translation>恢复未保存的修改</translation>
    </message>
</context>
<context>
    <name>Core</name>
    <message>
        <source>each process reads one checkpoint shard; bitsandbytes quantises it on the GPU</source>
        <translation>每个进程读取一个检查点分片；bitsandbytes 在 GPU 上将其量化</translation>
    </message>
    <message>
        <source>each process reads one checkpoint shard; zero.Init partitions the model on the GPUs</source>
        <translation>每个进程读取一个检查点分片；zero.Init 在各 GPU 上对模型分区</translation>
    </message>
    <message>
        <source>every process builds the whole model on the host and reads a checkpoint shard into it</source>
        <translation>每个进程都在主机上构建完整模型，并向其中读入一个检查点分片</translation>
    </message>
    <message>
        <source>the offloaded fp32 master weights, gradients and optimizer moments</source>
        <translation>卸载的 fp32 主权重、梯度和优化器动量</translation>
    </message>
    <message>
        <source>the offloaded parameters and swap buffers</source>
        <translation>卸载的参数和交换缓冲区</translation>
    </message>
    <message>
        <source>the training processes alone: nothing is offloaded</source>
        <translation>仅训练进程本身：没有卸载任何内容</translation>
    </message>
    <message>
        <source>the offloaded partitions being made</source>
        <translation>正在创建的卸载分区</translation>
    </message>
    <message>
        <source>the 16-bit model flattened on the host: the GPU has no room for a second copy</source>
        <translation>在主机上展平的 16 位模型：GPU 显存放不下第二份副本</translation>
    </message>
    <message>
        <source>the training processes alone</source>
        <translation>仅训练进程本身</translation>
    </message>
    <message>
        <source>rank 0 gathers the whole 16-bit model, stage3_gather_16bit_weights_on_model_save</source>
        <translation>rank 0 聚合完整的 16 位模型（stage3_gather_16bit_weights_on_model_save）</translation>
    </message>
    <message>
        <source>every process copies the 16-bit model to the host, the Trainer&apos;s get_state_dict</source>
        <translation>每个进程都把 16 位模型复制到主机（Trainer 的 get_state_dict）</translation>
    </message>
    <message>
        <source>torch.save copies each rank&apos;s fp32 optimizer partition to the host</source>
        <translation>torch.save 把每个 rank 的 fp32 优化器分区复制到主机</translation>
    </message>
    <message>
        <source>whole 16-bit model on the GPU before ZeRO-3 partitions it (no zero.Init)</source>
        <translation>ZeRO-3 分区之前完整的 16 位模型位于 GPU 上（未使用 zero.Init）</translation>
    </message>
    <message>
        <source>fp32 master partition, optimizer states and a zeroed fp32 gradient (initialize_optimizer_states)</source>
        <translation>fp32 主权重分区、优化器状态和一份清零的 fp32 梯度（initialize_optimizer_states）</translation>
    </message>
    <message>
        <source>16-bit weights</source>
        <translation>16 位权重</translation>
    </message>
    <message>
        <source>logits, their fp32 up-cast and log-softmax</source>
        <translation>logits、其 fp32 上转型副本和 log-softmax</translation>
    </message>
    <message>
        <source>logits and log-softmax</source>
        <translation>logits 和 log-softmax</translation>
    </message>
    <message>
        <source>one chunk of logits (chunked linear cross-entropy)</source>
        <translation>一块 logits（分块线性交叉熵）</translation>
    </message>
    <message>
        <source>the first pipeline stage holds no logits</source>
        <translation>流水线第一级不持有 logits</translation>
    </message>
    <message>
        <source>stored activations</source>
        <translation>保存的激活值</translation>
    </message>
    <message>
        <source>stored activations and gathered ZeRO-3 parameters</source>
        <translation>保存的激活值和聚合的 ZeRO-3 参数</translation>
    </message>
    <message>
        <source>activations and their gradients</source>
        <translation>激活值及其梯度</translation>
    </message>
    <message>
        <source>activations, their gradients and the ipg gradient buckets</source>
        <translation>激活值、其梯度和 ipg 梯度桶</translation>
    </message>
    <message>
        <source>activations, their gradients and gathered ZeRO-3 parameters</source>
        <translation>激活值、其梯度和聚合的 ZeRO-3 参数</translation>
    </message>
    <message>
        <source>gradients and the reduce bucket</source>
        <translation>梯度和归约桶</translation>
    </message>
    <message>
        <source>fp32 gradient partition</source>
        <translation>fp32 梯度分区</translation>
    </message>
    <message>
        <source>fp32 gradient partition and torch.optim&apos;s temporaries</source>
        <translation>fp32 梯度分区和 torch.optim 的临时张量</translation>
    </message>
    <message>
        <source>bf16 gradient partition and torch.optim&apos;s temporaries</source>
        <translation>bf16 梯度分区和 torch.optim 的临时张量</translation>
    </message>
    <message>
        <source>bf16 gradient partition (bf16 master weights)</source>
        <translation>bf16 梯度分区（bf16 主权重）</translation>
    </message>
    <message>
        <source>torch.save copies each rank&apos;s bf16 master partition to the host</source>
        <translation>torch.save 把每个 rank 的 bf16 主权重分区复制到主机</translation>
    </message>
    <message>
        <source>bf16 master weights and optimizer states run at ZeRO stage 1-3 with the optimizer on the GPU (DeepSpeed needs ZeRO 1-3; with offload the planner does not model them)</source>
        <translation>bf16 主权重和优化器状态只在 ZeRO 阶段 1-3 且优化器留在 GPU 上时运行（DeepSpeed 要求 ZeRO 1-3；卸载时本规划器不对其建模）</translation>
    </message>
    <message>
        <source>the step runs on the host (DeepSpeed CPU Adam)</source>
        <translation>优化器步骤在主机上运行（DeepSpeed CPU Adam）</translation>
    </message>
    <message>
        <source>partitions only</source>
        <translation>仅分区</translation>
    </message>
    <message>
        <source>16-bit parameters gathered in place</source>
        <translation>原地聚合的 16 位参数</translation>
    </message>
    <message>
        <source>while loading the model</source>
        <translation>于加载模型时</translation>
    </message>
    <message>
        <source>in deepspeed.initialize</source>
        <translation>于 deepspeed.initialize 中</translation>
    </message>
    <message>
        <source>during training (from the first optimizer step on)</source>
        <translation>于训练期间（从第一次优化器步骤起）</translation>
    </message>
    <message>
        <source>while saving a checkpoint</source>
        <translation>于保存检查点时</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <source>start-up</source>
        <translation>启动</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>gradient reduce</source>
        <translation>梯度归约</translation>
    </message>
    <message>
        <source>optimizer step</source>
        <translation>优化器步骤</translation>
    </message>
    <message>
        <source>parameter gather</source>
        <translation>参数聚合</translation>
    </message>
    <message>
        <source>%1 GPUs</source>
        <translation>%1 个 GPU</translation>
    </message>
    <message>
        <source>%1 data-parallel groups of %2 GPUs</source>
        <translation>%1 个数据并行组，每组 %2 个 GPU</translation>
    </message>
    <message>
        <source>from_pretrained(..., torch_dtype=torch.bfloat16): load the model in 16-bit, not fp32</source>
        <translation>from_pretrained(..., torch_dtype=torch.bfloat16)：以 16 位而非 fp32 加载模型</translation>
    </message>
    <message>
        <source>zero.Init (zero3_init_flag: true): partition the model as it is built</source>
        <translation>zero.Init（zero3_init_flag: true）：在构建模型时即分区</translation>
    </message>
    <message>
        <source>stage3_gather_16bit_weights_on_model_save: false (consolidate with zero_to_fp32.py after training)</source>
        <translation>stage3_gather_16bit_weights_on_model_save: false（训练后用 zero_to_fp32.py 合并）</translation>
    </message>
    <message>
        <source>pin_memory: false (no power-of-two rounding; slower offload copies)</source>
        <translation>pin_memory: false（不再向上取整到 2 的幂；卸载复制变慢）</translation>
    </message>
    <message>
        <source>activation_checkpointing.cpu_checkpointing: false (the checkpoints stay in GPU memory)</source>
        <translation>activation_checkpointing.cpu_checkpointing: false（检查点留在显存中）</translation>
    </message>
    <message>
        <source>offload_optimizer: nvme (ZeRO-Infinity)</source>
        <translation>offload_optimizer: nvme（ZeRO-Infinity）</translation>
    </message>
    <message>
        <source>ZeRO-3 under zero.Init with offload_optimizer: nvme (ZeRO-Infinity; NVMe offload needs stage 3)</source>
        <translation>使用 zero.Init 的 ZeRO-3 加 offload_optimizer: nvme（ZeRO-Infinity；卸载到 NVMe 需要 stage 3）</translation>
    </message>
    <message>
        <source>%1 nodes instead of %2 (the same global batch over twice the GPUs)</source>
        <translation>%1 个节点而非 %2 个（同样的全局批量分摊到两倍的 GPU 上）</translation>
    </message>
    <message>
        <source>%1, with %2 of NVMe per node (%3 there)</source>
        <translation>%1，每节点需要 %2 NVMe（现有 %3）</translation>
    </message>
    <message>
        <source>%1 frees %2 per node and fits</source>
        <translation>%1 每节点释放 %2，可以放下</translation>
    </message>
    <message>
        <source>%1 frees the most, %2 per node, and still does not fit</source>
        <translation>%1 释放最多（每节点 %2），但仍放不下</translation>
    </message>
    <message>
        <source>%1 per GPU at its peak (%2), %3 available (%4 GiB less %5% headroom)</source>
        <translation>每 GPU 峰值 %1（%2），可用 %3（%4 GiB 减去 %5% 余量）</translation>
    </message>
    <message>
        <source>%1 host RAM per node %2, %3 available</source>
        <translation>每节点主机内存 %1（%2），可用 %3</translation>
    </message>
    <message>
        <source>%1; the cheapest fix: %2</source>
        <translation>%1；代价最小的修正：%2</translation>
    </message>
    <message>
        <source>%1 NVMe per node, %2 available</source>
        <translation>每节点 NVMe %1，可用 %2</translation>
    </message>
    <message>
        <source>%1; and %2</source>
        <translation>%1；以及%2</translation>
    </message>
    <message>
        <source>needs %1</source>
        <translation>需要%1</translation>
    </message>
    <message>
        <source>pipeline parallelism works with ZeRO stage 0 or 1 only (DeepSpeed&apos;s PipelineEngine)</source>
        <translation>流水线并行只能与 ZeRO stage 0 或 1 一起使用（DeepSpeed 的 PipelineEngine）</translation>
    </message>
    <message>
        <source>NVMe: %1 per node would let ZeRO-3 offload states to NVMe (now %2)</source>
        <translation>NVMe：每节点 %1 即可让 ZeRO-3 把状态卸载到 NVMe（现有 %2）</translation>
    </message>
    <message>
        <source>host RAM: %1 per node would fit the CPU-offload setup (now %2)</source>
        <translation>主机内存：每节点 %1 即可放下 CPU 卸载方案（现有 %2）</translation>
    </message>
    <message>
        <source>%1: %2 frees %3 per node and fits</source>
        <translation>%1：%2 每节点释放 %3，可以放下</translation>
    </message>
    <message>
        <source>%1: %2 frees %3 per node</source>
        <translation>%1：%2 每节点释放 %3</translation>
    </message>
    <message>
        <source>more GPUs: %1 GPUs (%2 nodes of %3) would fit %4</source>
        <translation>更多 GPU：%1 个 GPU（%2 个节点，每节点 %3 个）可放下 %4</translation>
    </message>
    <message>
        <source>a shorter sequence: %1 tokens (now %2) would fit %3</source>
        <translation>更短的序列：%1 个 token（现为 %2）可放下 %3</translation>
    </message>
    <message>
        <source>fine-tuning with adapters instead of full training: %1 (r 16, all linear layers; --finetune %2 --lora-rank 16 --lora-targets all-linear) would fit %3</source>
        <translation>用适配器微调代替全量训练：%1（r 16，所有线性层；--finetune %2 --lora-rank 16 --lora-targets all-linear）可放下 %3</translation>
    </message>
    <message>
        <source>LoRA on a 16-bit base</source>
        <translation>16 位基座上的 LoRA</translation>
    </message>
    <message>
        <source>QLoRA on an NF4 base</source>
        <translation>NF4 基座上的 QLoRA</translation>
    </message>
    <message>
        <source>fits and is within 2% (%1 tokens/s), but %2 is simpler</source>
        <translation>可以放下且速度相差不到 2%（%1 tokens/s），但 %2 更简单</translation>
    </message>
    <message>
        <source>fits, but is %1 slower (%2 vs %3 tokens/s)</source>
        <translation>可以放下，但慢 %1（%2 对 %3 tokens/s）</translation>
    </message>
    <message>
        <source>%1 with micro batch %2 x %3 accumulation steps and %4 activation recompute is the fastest setup that fits: %5 tokens/s.</source>
        <translation>%1（微批量 %2 × 梯度累积 %3 步，激活重计算：%4）是放得下的方案中最快的：%5 tokens/s。</translation>
    </message>
    <message>
        <source>no</source>
        <translation>无</translation>
    </message>
    <message>
        <source>With ZeRO++: %1; the secondary partition takes %2 per GPU.</source>
        <translation>启用 ZeRO++：%1；二级分区每 GPU 占用 %2。</translation>
    </message>
    <message>
        <source>With ZeRO++: %1.</source>
        <translation>启用 ZeRO++：%1。</translation>
    </message>
    <message>
        <source>It peaks in the %1 (%2): %3 allocated, %4 reserved with the CUDA context (nvidia-smi), %5 that must fit of %6 usable per GPU.</source>
        <translation>峰值出现在%1阶段（%2）：已分配 %3，含 CUDA 上下文的保留量 %4（nvidia-smi），每 GPU 可用 %6 中须容纳 %5。</translation>
    </message>
    <message>
        <source>Host RAM peaks %1 (%2): %3 of %4 per node; %5 NVMe per node.</source>
        <translation>主机内存峰值出现%1（%2）：每节点 %3 / %4；每节点 NVMe %5。</translation>
    </message>
    <message>
        <source>Host RAM peaks %1 (%2): %3 of %4 per node.</source>
        <translation>主机内存峰值出现%1（%2）：每节点 %3 / %4。</translation>
    </message>
    <message>
        <source>%1 + %2 optimizer</source>
        <translation>%1 + %2 卸载优化器</translation>
    </message>
    <message>
        <source>%1 + %2 optimizer and params</source>
        <translation>%1 + %2 卸载优化器和参数</translation>
    </message>
    <message>
        <source>%1 + %2 optimizer, %3 params</source>
        <translation>%1 + %2 卸载优化器、%3 卸载参数</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1、%2</translation>
    </message>
    <message>
        <source>hpZ over %1 GPUs</source>
        <translation>hpZ 分层分割存储（%1 个 GPU）</translation>
    </message>
    <message>
        <source>int8 weight gathers (qwZ)</source>
        <translation>int8 权重量化聚合（qwZ）</translation>
    </message>
    <message>
        <source>int4 gradient reduce (qgZ)</source>
        <translation>int4 梯度量化归约（qgZ）</translation>
    </message>
    <message>
        <source>matmuls</source>
        <translation>矩阵乘</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>memory-bound kernels (elementwise, norms, loss, train metrics, optimizer)</source>
        <translation>访存受限的内核（逐元素运算、归一化、损失、训练指标、优化器）</translation>
    </message>
    <message>
        <source>kernel launch overhead</source>
        <translation>内核启动开销</translation>
    </message>
    <message>
        <source>exposed gradient all-reduce</source>
        <translation>未重叠的梯度 all-reduce</translation>
    </message>
    <message>
        <source>exposed gradient reduce-scatter</source>
        <translation>未重叠的梯度 reduce-scatter</translation>
    </message>
    <message>
        <source>exposed parameter all-gathers</source>
        <translation>未重叠的参数 all-gather</translation>
    </message>
    <message>
        <source>ZeRO-3 module hooks and gather latency</source>
        <translation>ZeRO-3 模块钩子和聚合延迟</translation>
    </message>
    <message>
        <source>offload transfers over PCIe</source>
        <translation>经 PCIe 的卸载传输</translation>
    </message>
    <message>
        <source>CPU optimizer step</source>
        <translation>CPU 优化器步骤</translation>
    </message>
    <message>
        <source>NVMe swapping</source>
        <translation>NVMe 换入换出</translation>
    </message>
    <message>
        <source>compute-bound: matmuls and attention are %1 of the step</source>
        <translation>计算受限：矩阵乘和注意力占单步时间的 %1</translation>
    </message>
    <message>
        <source>launch-bound (the host issues kernels slower than the GPU runs them)</source>
        <translation>启动受限（主机发出内核的速度慢于 GPU 执行的速度）</translation>
    </message>
    <message>
        <source>memory-bound kernels</source>
        <translation>访存受限的内核</translation>
    </message>
    <message>
        <source>%1: %2 of the step (compute %3)</source>
        <translation>%1：占单步时间的 %2（计算 %3）</translation>
    </message>
    <message>
        <source>gradient all-reduce</source>
        <translation>梯度 all-reduce</translation>
    </message>
    <message>
        <source>gradient reduce-scatter and all-gather of the updated parameters</source>
        <translation>梯度 reduce-scatter 和更新后参数的 all-gather</translation>
    </message>
    <message>
        <source>parameter all-gathers (forward and backward) and gradient reduce-scatter</source>
        <translation>参数 all-gather（前向和反向）和梯度 reduce-scatter</translation>
    </message>
    <message>
        <source>expert parallelism works with ZeRO stage 0, 1 or 2 only (DeepSpeed&apos;s MoE layer)</source>
        <translation>专家并行仅支持 ZeRO stage 0、1 或 2（DeepSpeed 的 MoE 层）</translation>
    </message>
    <message>
        <source>expert dispatch and combine all-to-alls</source>
        <translation>专家并行的分发与合并 all-to-all</translation>
    </message>
    <message>
        <source>%1 data-parallel groups of %2 sequence-parallel GPUs</source>
        <translation>%1 个数据并行组，每组 %2 个序列并行 GPU</translation>
    </message>
    <message>
        <source>sequence-parallel all-to-alls (DeepSpeed-Ulysses)</source>
        <translation>序列并行 all-to-all（DeepSpeed-Ulysses）</translation>
    </message>
    <message>
        <source>every process builds its rank&apos;s share of the model on the host and reads a checkpoint shard into it</source>
        <translation>每个进程都在主机上构建本 rank 分到的那部分模型，并向其中读入一个检查点分片</translation>
    </message>
    <message>
        <source>model states sharded over groups of %1 GPUs, %2 replicas</source>
        <translation>模型状态分片到每组 %1 个 GPU，共 %2 个副本</translation>
    </message>
    <message>
        <source>%1, hierarchical gather across %2 nodes</source>
        <translation>%1，跨 %2 个节点分层收集</translation>
    </message>
    <message>
        <source>With MiCS: %1; each GPU holds 1/%2 of the model states and gathers them inside its group.</source>
        <translation>使用 MiCS：%1；每个 GPU 持有 1/%2 的模型状态，并在组内收集参数。</translation>
    </message>
    <message>
        <source>ZeRO++ on auto chose --zeropp %1: without it ZeRO-3&apos;s gathers and gradient reduce cross the network, %2 of communication exposed per step instead of %3, and the step is %4 slower.</source>
        <translation>ZeRO++ 自动选择了 --zeropp %1：不启用时 ZeRO-3 的参数聚合与梯度归约都要跨网络，每步暴露的通信为 %2 而非 %3，每步慢 %4。</translation>
    </message>
    <message>
        <source>ZeRO++ on auto stays off: with hpZ, or hpZ + qwZ + qgZ, this setup is not 2% faster or does not fit.</source>
        <translation>ZeRO++ 自动保持关闭：启用 hpZ 或 hpZ + qwZ + qgZ 后，此方案快不到 2%，或放不下。</translation>
    </message>
    <message>
        <source>off (inside one node the gathers stay on NVLink)</source>
        <translation>关闭（单节点内参数聚合只走 NVLink）</translation>
    </message>
    <message>
        <source>off (no plan fits)</source>
        <translation>关闭（没有能放下的方案）</translation>
    </message>
    <message>
        <source>off (ZeRO++ needs ZeRO-3)</source>
        <translation>关闭（ZeRO++ 需要 ZeRO-3）</translation>
    </message>
    <message>
        <source>off (not faster here)</source>
        <translation>关闭（此处不更快）</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>ZeRO</source>
        <translation>ZeRO</translation>
    </message>
    <message>
        <source>micro batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>sequence</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>fine-tuning</source>
        <translation>微调</translation>
    </message>
    <message>
        <source>capacity: the run needs more memory at that moment than the GPU has</source>
        <translation>容量不足：该时刻训练所需显存超过 GPU 容量</translation>
    </message>
    <message>
        <source>device placement, not capacity</source>
        <translation>设备放置问题，而非容量不足</translation>
    </message>
    <message>
        <source>fragmentation, not capacity</source>
        <translation>显存碎片，而非容量不足</translation>
    </message>
    <message>
        <source>generation or evaluation only, not the training step</source>
        <translation>仅在生成或评估时出现，而非训练步</translation>
    </message>
    <message>
        <source>PyTorch FSDP has no such setup: no optimizer-only sharding (stage 1), no NVMe, and its CPU offload moves parameters and optimizer together at FULL_SHARD</source>
        <translation>PyTorch FSDP 没有这种设置：没有只切分优化器状态的方式（stage 1），没有 NVMe，其 CPU 卸载只在 FULL_SHARD 下把参数和优化器一起移到 CPU</translation>
    </message>
    <message>
        <source>Engine on auto chose %1: %2 tokens/s with %3, against %4 tokens/s with %5 under %6.</source>
        <translation>引擎自动选择了 %1：%3 为 %2 tokens/s，而 %6 下的 %5 为 %4 tokens/s。</translation>
    </message>
    <message>
        <source>Engine on auto chose %1: nothing fits under %2.</source>
        <translation>引擎自动选择了 %1：%2 下没有方案放得下。</translation>
    </message>
    <message>
        <source>the node&apos;s first process loads the whole model (FSDP&apos;s cpu_ram_efficient_loading)</source>
        <translation>节点的第一个进程加载整个模型（FSDP 的 cpu_ram_efficient_loading）</translation>
    </message>
    <message>
        <source>every process writes its own shards (FSDP&apos;s SHARDED_STATE_DICT)</source>
        <translation>每个进程写出自己的分片（FSDP 的 SHARDED_STATE_DICT）</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>GPU 显存</translation>
    </message>
    <message>
        <source>host RAM</source>
        <translation>主机内存</translation>
    </message>
    <message>
        <source>NVMe</source>
        <translation>NVMe</translation>
    </message>
    <message>
        <source>int32 kernel indexing</source>
        <translation>int32 内核索引</translation>
    </message>
    <message>
        <source>the planner&apos;s longest sequence</source>
        <translation>规划器支持的最长序列</translation>
    </message>
    <message>
        <source>Fits at the edge: %1 of %2 at its peak (in the %3)</source>
        <translation>处于边缘：峰值时（%3阶段）%1 / %2</translation>
    </message>
    <message>
        <source>Fits with %1 to spare at its peak (in the %2)</source>
        <translation>放得下，峰值时（%2阶段）还余 %1</translation>
    </message>
    <message>
        <source>%1 (no larger one fits)</source>
        <translation>%1（更大的放不下）</translation>
    </message>
    <message>
        <source>%1 (%2 needs %3)</source>
        <translation>%1（%2 需要 %3）</translation>
    </message>
    <message>
        <source>up to %1 (now %2; global batch %3)</source>
        <translation>最多 %1（现为 %2；全局批量 %3）</translation>
    </message>
    <message>
        <source>up to %1 (now %2)</source>
        <translation>最多 %1（现为 %2）</translation>
    </message>
    <message>
        <source>up to %1 tokens (then %2)</source>
        <translation>最多 %1 个 token（再长则受限于 %2）</translation>
    </message>
    <message>
        <source>%1 x %2 accum. x %3 GPUs</source>
        <translation>%1 × 累积 %2 × %3 个 GPU</translation>
    </message>
    <message>
        <source>%1 x %2 accum. x %3 groups of %4 GPUs</source>
        <translation>%1 × 累积 %2 × %3 组（每组 %4 个 GPU）</translation>
    </message>
    <message>
        <source>the allocator may grow into the card; it frees on demand</source>
        <translation>缓存分配器可以一直增长到显卡容量；需要时会释放</translation>
    </message>
    <message>
        <source>Workstation and consumer GPUs</source>
        <translation>工作站与消费级 GPU</translation>
    </message>
    <message>
        <source>logits, their shifted copy and log-softmax</source>
        <translation>logits、其移位副本与 log-softmax</translation>
    </message>
    <message>
        <source>The step waits %1% of its time for the data pipeline: more dataloader workers or pre-tokenized data would help more than any GPU setup.</source>
        <translation>每步有 %1% 的时间在等待数据管道：增加 dataloader worker 或预先分词的数据，比任何 GPU 配置都更有帮助。</translation>
    </message>
    <message>
        <source>waiting for the data pipeline</source>
        <translation>等待数据管道</translation>
    </message>
    <message>
        <source>tensor parallelism past the key/value heads runs in Megatron-Core, whose distributed optimizer partitions as ZeRO stage 1 does: no ZeRO stage 2 or 3</source>
        <translation>张量并行度超过键/值头数时只能在 Megatron-Core 中运行，其分布式优化器的划分方式与 ZeRO 阶段 1 相同：不支持 ZeRO 阶段 2 或 3</translation>
    </message>
    <message>
        <source>bf16 master partition, optimizer states and a zeroed bf16 gradient (initialize_optimizer_states)</source>
        <translation>bf16 主权重分区、优化器状态和一份清零的 bf16 梯度（initialize_optimizer_states）</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1；%2</translation>
    </message>
    <message>
        <source>together: %1</source>
        <translation>一起：%1</translation>
    </message>
    <message>
        <source>host RAM: %1 fits the GPU at %2 tokens and needs %3 per node (now %4)</source>
        <translation>主机内存：%1 在 %2 个 token 时可以放入 GPU，但每个节点需要 %3（现有 %4）</translation>
    </message>
    <message>
        <source>a GPU with more memory: no setup fits this GPU at any sequence length we tried</source>
        <translation>显存更大的 GPU：在所尝试的任何序列长度下，都没有方案能放入此 GPU</translation>
    </message>
    <message>
        <source>LAMB cannot run with the optimizer offloaded: DeepSpeed builds its CUDA FusedLamb, which cannot step the partition on the host (use AdamW, Adagrad or Lion with offload)</source>
        <translation>LAMB 不能在优化器卸载时运行：DeepSpeed 构建的是 CUDA 版 FusedLamb，无法在主机上更新分区（卸载时请用 AdamW、Adagrad 或 Lion）</translation>
    </message>
    <message>
        <source>%1 + %2 params</source>
        <translation>%1 + %2 卸载参数</translation>
    </message>
    <message>
        <source>outside PyTorch&apos;s allocator: a CUDA call, NCCL or cuBLAS found no room beside PyTorch&apos;s cache (a full card, or another process on it)</source>
        <translation>PyTorch 分配器之外：CUDA 调用、NCCL 或 cuBLAS 在 PyTorch 缓存之外找不到空间（显卡已满，或有其他进程占用）</translation>
    </message>
    <message>
        <source>the DeepSpeed release given does not have it (ZeRO-3 from v0.3.12, the offload blocks from v0.3.15, ZeRO without fp16 from v0.4.0, bf16 without ZeRO from v0.6.2)</source>
        <translation>所指定的 DeepSpeed 版本没有此设置（ZeRO-3 自 v0.3.12 起，卸载配置块自 v0.3.15 起，不用 fp16 的 ZeRO 自 v0.4.0 起，不用 ZeRO 的 bf16 自 v0.6.2 起）</translation>
    </message>
    <message>
        <source>not capacity: the card had room for the request, and the driver or runtime refused it</source>
        <translation>不是容量问题：显卡有足够空间容纳该请求，是驱动或运行时拒绝了它</translation>
    </message>
    <message>
        <source>fits at %1, but is %2 slower (%3 vs %4 tokens/s)</source>
        <translation>在 %1 下可以放下，但慢 %2（%3 对 %4 tokens/s）</translation>
    </message>
    <message>
        <source>one GPU</source>
        <translation>一个 GPU</translation>
    </message>
    <message>
        <source>%1 x %2 accum. on one GPU</source>
        <translation>%1 × 累积 %2，单个 GPU</translation>
    </message>
    <message>
        <source>one group of %1 sequence-parallel GPUs</source>
        <translation>一个组，含 %1 个序列并行 GPU</translation>
    </message>
    <message>
        <source>one model-parallel group of %1 GPUs</source>
        <translation>一个模型并行组，含 %1 个 GPU</translation>
    </message>
    <message>
        <source>%1 x %2 accum. on one group of %3 GPUs</source>
        <translation>%1 × 累积 %2，在一个 %3 GPU 的组上</translation>
    </message>
    <message>
        <source>16-bit parameters gathered shard by shard, outputs freed behind NCCL</source>
        <translation>16 位参数逐分片聚合，各分片输出在 NCCL 用完后才释放</translation>
    </message>
    <message>
        <source>a chunked loss (Liger-Kernel&apos;s fused linear cross-entropy, --loss-kernel chunked) would fit %1 at %2 tokens</source>
        <translation>分块计算损失（Liger-Kernel 的融合线性交叉熵，--loss-kernel chunked）可在 %2 个 token 下放下 %1</translation>
    </message>
    <message>
        <source>ALST&apos;s tiled MLP and loss, checkpoints in host RAM (--alst on) would fit %1 at %2 tokens</source>
        <translation>ALST 的分块 MLP 与损失、检查点放在主机内存（--alst on）可在 %2 个 token 下放下 %1</translation>
    </message>
    <message>
        <source>ZeRO++ on auto chose --zeropp %1 (%5): without it ZeRO-3&apos;s gathers and gradient reduce cross the network, %2 of communication exposed per step instead of %3, and the step is %4 slower.</source>
        <translation>ZeRO++ 自动选择了 --zeropp %1（%5）：不启用时 ZeRO-3 的参数聚合与梯度归约都要跨网络，每步暴露的通信为 %2 而非 %3，每步慢 %4。</translation>
    </message>
    <message>
        <source>copies over PCIe %1%</source>
        <translation>PCIe 复制 %1%</translation>
    </message>
    <message>
        <source>the CPU optimizer step %1%</source>
        <translation>CPU 优化器步骤 %1%</translation>
    </message>
    <message>
        <source>NVMe reads and writes %1%</source>
        <translation>NVMe 读写 %1%</translation>
    </message>
    <message>
        <source>fits and is as fast (%1 tokens/s) at %2, but %3 is within 2% with less model parallelism (%4)</source>
        <translation>在 %2 下可以放下且同样快（%1 tokens/s），但 %3 相差不到 2% 且模型并行更少（%4）</translation>
    </message>
    <message>
        <source>%1 with micro batch %2 x %3 accumulation steps and %4 activation recompute is the simplest setup within 2% of the fastest that fits: %5 tokens/s against %6.</source>
        <translation>%1（微批量 %2 × 梯度累积 %3 步，激活重计算：%4）是放得下且与最快方案相差不到 2% 的方案中最简单的：%5 tokens/s，最快为 %6。</translation>
    </message>
    <message>
        <source>Exposed communication is %1% of the step, more than the compute (%2%): a faster network would help more than a faster GPU.</source>
        <translation>暴露的通信占每步的 %1%，超过计算（%2%）：更快的网络比更快的 GPU 帮助更大。</translation>
    </message>
    <message>
        <source>Exposed communication is %1% of the step (compute %2%).</source>
        <translation>暴露的通信占每步的 %1%（计算 %2%）。</translation>
    </message>
    <message>
        <source>Offload costs %1% of the step: %2.</source>
        <translation>卸载占每步的 %1%：%2。</translation>
    </message>
    <message>
        <source>%1 learns %2 positions: a sequence of %3 tokens indexes past its position table, so it fails unless the table is extended; plan at %2 tokens or fewer.</source>
        <translation>%1 学习的位置只有 %2 个：%3 个 token 的序列会越过其位置表，除非扩展该表，否则会失败；请按 %2 个 token 或更少来规划。</translation>
    </message>
    <message>
        <source>more GPUs: %1 GPUs of the node would fit %2</source>
        <translation>更多 GPU：用本节点的 %1 个 GPU 可放下 %2</translation>
    </message>
    <message>
        <source>Hybrid sharding (inside each node of %1 GPUs, replicated across nodes): %2 tokens/s with %3, against %4 tokens/s with %5 over all %6 GPUs.</source>
        <translation>混合分片（在每个 %1 GPU 节点内分片，跨节点复制）：%3 为 %2 tokens/s，而在全部 %6 个 GPU 上分片的 %5 为 %4 tokens/s。</translation>
    </message>
    <message>
        <source>Hybrid sharding (inside each node of %1 GPUs, replicated across nodes): nothing fits sharded over all %2 GPUs.</source>
        <translation>混合分片（在每个 %1 GPU 节点内分片，跨节点复制）：在全部 %2 个 GPU 上分片时没有方案放得下。</translation>
    </message>
    <message>
        <source>Sharded over all %1 GPUs: %2 tokens/s, against %3 tokens/s with %4 (inside each node of %5 GPUs, replicated across nodes).</source>
        <translation>在全部 %1 个 GPU 上分片：%2 tokens/s，而 %4（在每个 %5 GPU 节点内分片，跨节点复制）为 %3 tokens/s。</translation>
    </message>
    <message>
        <source>stored activations and unsharded FSDP units</source>
        <translation>保存的激活值和未分片的 FSDP 单元</translation>
    </message>
    <message>
        <source>activations, their gradients and unsharded FSDP units</source>
        <translation>激活值、其梯度和未分片的 FSDP 单元</translation>
    </message>
    <message>
        <source>shards only (FSDP gathers each unit when it runs)</source>
        <translation>仅分片（FSDP 在每个单元运行时收集它）</translation>
    </message>
    <message>
        <source>the step runs on the host (torch.optim on the CPU shards)</source>
        <translation>优化器步骤在主机上运行（torch.optim 作用于 CPU 上的分片）</translation>
    </message>
    <message>
        <source>gradient shards and torch.optim&apos;s temporaries</source>
        <translation>梯度分片和 torch.optim 的临时张量</translation>
    </message>
    <message>
        <source>gradient shards</source>
        <translation>梯度分片</translation>
    </message>
    <message>
        <source>gradient shards (FSDP reduced them in the backward)</source>
        <translation>梯度分片（FSDP 已在反向传播中归约）</translation>
    </message>
    <message>
        <source>fits and is within 2% (%1 tokens/s), but at the edge of GPU memory (%2 that must fit of %3 usable), where %4 has %5 to spare</source>
        <translation>可以放下且速度相差不到 2%（%1 tokens/s），但处于 GPU 显存边缘（须容纳 %2，可用 %3），而 %4 还余 %5</translation>
    </message>
    <message>
        <source>%1 with micro batch %2 x %3 accumulation steps and %4 activation recompute is the simplest setup within 2% of the fastest that fits, and fits clear of the edge of GPU memory, which the fastest does not: %5 tokens/s against %6.</source>
        <translation>%1（微批量 %2 × 梯度累积 %3 步，激活重计算：%4）是放得下且与最快方案相差不到 2% 的方案中最简单的，并且远离 GPU 显存边缘（最快方案处于边缘）：%5 tokens/s，最快为 %6。</translation>
    </message>
    <message>
        <source>rank 0 gathers the whole model (its quantized base and 16-bit adapters), stage3_gather_16bit_weights_on_model_save</source>
        <translation>rank 0 聚合完整模型（量化基座与 16 位适配器；stage3_gather_16bit_weights_on_model_save）</translation>
    </message>
    <message>
        <source>every process copies the model (its quantized base and 16-bit adapters) to the host, the Trainer&apos;s get_state_dict</source>
        <translation>每个进程都把模型（量化基座与 16 位适配器）复制到主机（Trainer 的 get_state_dict）</translation>
    </message>
    <message>
        <source>sequence %1 x data %2</source>
        <translation>序列 %1 × 数据 %2</translation>
    </message>
    <message>
        <source>tensor %1 x pipeline %2 x data %3</source>
        <translation>张量 %1 × 流水线 %2 × 数据 %3</translation>
    </message>
    <message>
        <source>data %1</source>
        <translation>数据 %1</translation>
    </message>
    <message>
        <source>%1, sequence parallel</source>
        <translation>%1，序列并行</translation>
    </message>
    <message>
        <source>%1, %2 virtual stages</source>
        <translation>%1，%2 个虚拟阶段</translation>
    </message>
    <message>
        <source>%1, expert %2</source>
        <translation>%1，专家 %2</translation>
    </message>
    <message>
        <source>asked, but only ZeRO-3 reads it (stage %1): off</source>
        <translation>已设置，但只有 ZeRO-3 读取它（当前为 stage %1）：关闭</translation>
    </message>
    <message>
        <source>hpZ over %1 GPUs not taken: its groups are consecutive ranks, which under tensor parallelism hold different tensor shards (utils/groups.py _create_zero_param_parallel_group)</source>
        <translation>未采用跨 %1 个 GPU 的 hpZ：它的分组是连续的 rank，在张量并行下各自持有不同的张量分片（utils/groups.py _create_zero_param_parallel_group）</translation>
    </message>
    <message>
        <source>hpZ over %1 GPUs not taken: the parameters are offloaded</source>
        <translation>未采用跨 %1 个 GPU 的 hpZ：参数已卸载</translation>
    </message>
    <message>
        <source>hpZ over %1 GPUs not taken: it is not smaller than the ranks ZeRO partitions over</source>
        <translation>未采用跨 %1 个 GPU 的 hpZ：它不小于 ZeRO 分区所跨的 rank 数</translation>
    </message>
    <message>
        <source>qgZ not taken: on one node stage 3 reduces in 16 bits (stage3.py __avg_scatter_grads)</source>
        <translation>未采用 qgZ：单节点上 stage 3 以 16 位归约（stage3.py __avg_scatter_grads）</translation>
    </message>
    <message>
        <source>past int32 kernel indexing: a rank&apos;s hidden states (micro batch x sequence / Ulysses x hidden) are %1 elements, 2^31 or more, which FlashAttention-2 and RMSNorm kernels index in 32 bits (Liger-Kernel #803): a higher Ulysses degree, a smaller micro batch or a sequence below %2 tokens, or kernels that index in 64 bits</source>
        <translation>超出 int32 内核索引：每个 rank 的隐藏状态（微批次 x 序列 / Ulysses x hidden）为 %1 个元素，达到或超过 2^31，而 FlashAttention-2 和 RMSNorm 内核以 32 位索引（Liger-Kernel #803）：请提高 Ulysses 并行度、减小微批次或使序列短于 %2 个 token，或使用 64 位索引的内核</translation>
    </message>
    <message>
        <source>PyTorch FSDP2&apos;s fully_shard always shards: it has no NO_SHARD (DDP)</source>
        <translation>PyTorch FSDP2 的 fully_shard 总是分片：没有 NO_SHARD（DDP）</translation>
    </message>
    <message>
        <source>PyTorch FSDP2 has no such setup: no optimizer-only sharding (stage 1), no NVMe, and its CPUOffloadPolicy moves parameters and optimizer together, with reshard_after_forward=True</source>
        <translation>PyTorch FSDP2 没有这种设置：没有只切分优化器状态的方式（stage 1），没有 NVMe，其 CPUOffloadPolicy 只在 reshard_after_forward=True 下把参数和优化器一起移到 CPU</translation>
    </message>
    <message>
        <source>a DeepSpeed release before v0.6.0, with no host copy of the 16-bit gradients (ZeRO-Infinity&apos;s; --host-grad-buffer off; raw DeepSpeed of 2021, too old for transformers, which needs v0.9.3 or later)</source>
        <translation>v0.6.0 之前的 DeepSpeed 版本，主机上不保留 16 位梯度副本（ZeRO-Infinity 所用；--host-grad-buffer off；2021 年的原生 DeepSpeed，对 transformers 而言太旧，它需要 v0.9.3 或更高版本）</translation>
    </message>
    <message>
        <source>this ds_config&apos;s batch keys hold for %1 data-parallel ranks, as Megatron-DeepSpeed counts them at tensor %2 x pipeline %3; under the Hugging Face Trainer or Accelerate every one of the %4 GPUs is a data-parallel rank</source>
        <translation>此 ds_config 的批大小键按 %1 个数据并行 rank 计算，这是 Megatron-DeepSpeed 在张量 %2 x 流水线 %3 下的计数；在 Hugging Face Trainer 或 Accelerate 下，%4 个 GPU 每个都是一个数据并行 rank</translation>
    </message>
    <message>
        <source>host memory ran out, not the GPU&apos;s</source>
        <translation>主机内存耗尽，而非 GPU 显存</translation>
    </message>
    <message>
        <source>not capacity: a tensor&apos;s size is wrong, far beyond any GPU</source>
        <translation>不是容量问题：某个张量的大小算错了，远超任何 GPU</translation>
    </message>
    <message>
        <source>not named by the log</source>
        <translation>日志中未指明</translation>
    </message>
    <message>
        <source>selective-op</source>
        <translation>选择性（算子级）</translation>
    </message>
    <message>
        <source>logits (a fused cross-entropy)</source>
        <translation>logits（融合交叉熵）</translation>
    </message>
    <message>
        <source>metrics</source>
        <translation>训练指标</translation>
    </message>
    <message>
        <source>the loop&apos;s metrics over the logits</source>
        <translation>训练循环在 logits 上计算的指标</translation>
    </message>
    <message>
        <source>every process builds its rank&apos;s share of the model on the meta device, then fills it on the host tensor by tensor</source>
        <translation>每个进程先在 meta 设备上构建本 rank 分到的那部分模型，再在主机上逐个张量载入</translation>
    </message>
    <message>
        <source>every process builds the model on the meta device, then fills it on the host tensor by tensor</source>
        <translation>每个进程先在 meta 设备上构建模型，再在主机上逐个张量载入</translation>
    </message>
    <message>
        <source>from_pretrained(..., low_cpu_mem_usage=True), or transformers 4.51 or later: no checkpoint shard beside the model</source>
        <translation>from_pretrained(..., low_cpu_mem_usage=True)，或使用 transformers 4.51 及以后版本：模型旁不再另存检查点分片</translation>
    </message>
</context>
<context>
    <name>Preferences</name>
    <message>
        <source>System language</source>
        <translation>系统语言</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>not given</source>
        <translation>未提供</translation>
    </message>
    <message>
        <source>PNG</source>
        <translation>PNG</translation>
    </message>
    <message>
        <source>PNG at 2x</source>
        <translation>PNG（2 倍）</translation>
    </message>
    <message>
        <source>SVG</source>
        <translation>SVG</translation>
    </message>
    <message>
        <source>PDF</source>
        <translation>PDF</translation>
    </message>
    <message>
        <source>cannot draw the %1 for %2</source>
        <translation>无法为 %2 绘制%1</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Buffers</source>
        <translation>缓冲区</translation>
    </message>
    <message>
        <source>Overhead</source>
        <translation>开销</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Model copy</source>
        <translation>模型副本</translation>
    </message>
    <message>
        <source>Loading the model</source>
        <translation>加载模型</translation>
    </message>
    <message>
        <source>deepspeed.initialize</source>
        <translation>deepspeed.initialize</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Saving a checkpoint</source>
        <translation>保存检查点</translation>
    </message>
    <message>
        <source>loading</source>
        <translation>加载</translation>
    </message>
    <message>
        <source>at init</source>
        <translation>初始化</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>saving</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Exposed communication</source>
        <translation>未重叠的通信</translation>
    </message>
    <message>
        <source>Offload</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>ZeRO Planner: %1</source>
        <translation>ZeRO Planner：%1</translation>
    </message>
    <message>
        <source>Recommended: %1</source>
        <translation>推荐：%1</translation>
    </message>
    <message>
        <source>Why not the others</source>
        <translation>为什么不选其他方案</translation>
    </message>
    <message>
        <source>Nothing fits</source>
        <translation>没有放得下的方案</translation>
    </message>
    <message>
        <source>Memory per setup</source>
        <translation>各方案的内存</translation>
    </message>
    <message>
        <source>Each setup at the scenario&apos;s own micro batch and recompute, as zero-planner compare prints it (the recommendation&apos;s own figures are above). Per GPU in GiB: the steady-state slices and their total; the step&apos;s peak reserved (nvidia-smi) and what must fit of it, on which fits is decided. Host RAM and NVMe in GiB per node. %1 candidates evaluated.</source>
        <translation>每个方案都使用场景自身的微批量和重计算设置，与 zero-planner compare 的输出一致（推荐方案自身的数字见上文）。每 GPU 显存以 GiB 计：稳态各部分及其合计；单步峰值保留量（nvidia-smi）以及其中须容纳的部分，是否放得下即据此判断。主机内存和 NVMe 以每节点 GiB 计。共评估了 %1 个候选。</translation>
    </message>
    <message>
        <source>unknown view &apos;%1&apos;; views: %2</source>
        <translation>未知视图“%1”；可用视图：%2</translation>
    </message>
    <message>
        <source>cannot encode the PNG for %1</source>
        <translation>无法为 %1 编码 PNG</translation>
    </message>
    <message>
        <source>Waiting for data</source>
        <translation>等待数据</translation>
    </message>
</context>
<context>
    <name>SetupBarChart</name>
    <message>
        <source>bf16 master</source>
        <translation>bf16 主权重</translation>
    </message>
    <message>
        <source>FSDP</source>
        <translation>FSDP</translation>
    </message>
    <message>
        <source>pipeline</source>
        <translation>流水线</translation>
    </message>
    <message>
        <source>tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>experts</source>
        <translation>专家</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>NVMe</source>
        <translation>NVMe</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>release</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>int32 index</source>
        <translation>int32 索引</translation>
    </message>
</context>
<context>
    <name>zp::ui</name>
    <message>
        <source>%1 points from %2 to %3, highest %4 at %5.</source>
        <translation>%1 个点，从 %2 到 %3，最高 %4，位于 %5。</translation>
    </message>
    <message>
        <source>%1 legend</source>
        <translation>%1 图例</translation>
    </message>
    <message>
        <source>Controls</source>
        <translation>控件</translation>
    </message>
    <message>
        <source>The scenario: model, GPUs, network, parallelism, host, fine-tuning and training</source>
        <translation>场景：模型、GPU、网络、并行、主机、微调与训练</translation>
    </message>
    <message>
        <source>The recommended setup, its figures, and why it won and the others lost</source>
        <translation>推荐方案、其各项数值，以及它胜出和其他方案落选的原因</translation>
    </message>
    <message>
        <source>The DeepSpeed config of the selected setup in the chosen format, with Copy and Export</source>
        <translation>所选方案的 DeepSpeed 配置（所选格式），可复制和导出</translation>
    </message>
</context>
<context>
    <name>zp::ui::Autosave</name>
    <message>
        <source>Cannot autosave: %1</source>
        <translation>无法自动保存：%1</translation>
    </message>
</context>
<context>
    <name>zp::ui::CalibrateDialog</name>
    <message>
        <source>Calibrate from a Run</source>
        <translation>根据实际运行校准</translation>
    </message>
    <message>
        <source>Paste what your run printed (DeepSpeed, Megatron or Hugging Face Trainer lines), open its log, or type what it measured. The planner fits its compute efficiency so that the predicted step equals the measured one.</source>
        <translation>粘贴训练运行的输出（DeepSpeed、Megatron 或 Hugging Face Trainer 的日志行），打开其日志文件，或直接输入测得的数值。规划器会拟合计算效率，使预测的单步时间与实测值相等。</translation>
    </message>
    <message>
        <source>&amp;Log:</source>
        <translation>日志(&amp;L)：</translation>
    </message>
    <message>
        <source>[timer.py:154:stop] 0/1251, SamplesPerSec=11.66 ...</source>
        <translation>[timer.py:154:stop] 0/1251, SamplesPerSec=11.66 ...</translation>
    </message>
    <message>
        <source>Run log</source>
        <translation>运行日志</translation>
    </message>
    <message>
        <source>&amp;Open Log File...</source>
        <translation>打开日志文件(&amp;O)...</translation>
    </message>
    <message>
        <source>Open log file</source>
        <translation>打开日志文件</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Measured step time in seconds</source>
        <translation>实测单步时间（秒）</translation>
    </message>
    <message>
        <source> samples/s</source>
        <translation> 样本/秒</translation>
    </message>
    <message>
        <source>Measured throughput in samples per second</source>
        <translation>实测吞吐量（样本/秒）</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source>Measured max allocated GiB per GPU</source>
        <translation>实测每 GPU 最大已分配显存（GiB）</translation>
    </message>
    <message>
        <source>Measured max reserved GiB per GPU</source>
        <translation>实测每 GPU 最大保留显存（GiB）</translation>
    </message>
    <message>
        <source>What was read</source>
        <translation>读取到的内容</translation>
    </message>
    <message>
        <source>Why it cannot calibrate</source>
        <translation>无法校准的原因</translation>
    </message>
    <message>
        <source>Predicted before</source>
        <translation>校准前预测</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Predicted after</source>
        <translation>校准后预测</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>Max allocated per GPU</source>
        <translation>每 GPU 最大已分配</translation>
    </message>
    <message>
        <source>Max reserved per GPU</source>
        <translation>每 GPU 最大保留</translation>
    </message>
    <message>
        <source>What moved</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation>应用(&amp;A)</translation>
    </message>
    <message>
        <source>Apply the calibrated scenario</source>
        <translation>应用校准后的场景</translation>
    </message>
    <message>
        <source>Open Run Log</source>
        <translation>打开运行日志</translation>
    </message>
    <message>
        <source>Logs and text (*.log *.txt *.out);;All files (*)</source>
        <translation>日志和文本 (*.log *.txt *.out);;所有文件 (*)</translation>
    </message>
    <message>
        <source>numbers typed in the window</source>
        <translation>窗口中输入的数值</translation>
    </message>
    <message>
        <source>a pasted log</source>
        <translation>粘贴的日志</translation>
    </message>
    <message>
        <source>Paste a log, open one, or type a measured step time or throughput.</source>
        <translation>粘贴日志、打开日志文件，或输入实测的单步时间或吞吐量。</translation>
    </message>
    <message>
        <source>typed step time</source>
        <translation>输入的单步时间</translation>
    </message>
    <message>
        <source>typed throughput</source>
        <translation>输入的吞吐量</translation>
    </message>
    <message>
        <source>typed max allocated</source>
        <translation>输入的最大已分配</translation>
    </message>
    <message>
        <source>typed max reserved</source>
        <translation>输入的最大保留</translation>
    </message>
    <message>
        <source>Read: %1</source>
        <translation>已读取：%1</translation>
    </message>
    <message>
        <source>What moved: the compute-efficiency scale x%1 -&gt; x%2 (stored as MFU %3 -&gt; %4).</source>
        <translation>变化：计算效率系数 x%1 -&gt; x%2（保存为 MFU %3 -&gt; %4）。</translation>
    </message>
    <message>
        <source>Memory is compared, not fitted: the allocator&apos;s shares are the same for every run.</source>
        <translation>内存只做比较，不做拟合：分配器的比例对每次运行都相同。</translation>
    </message>
    <message>
        <source>Apply keeps it in the session as calibrated from %1.</source>
        <translation>应用后会在会话中记为根据 %1 校准。</translation>
    </message>
    <message>
        <source>Calibrate from %1</source>
        <translation>根据 %1 校准</translation>
    </message>
    <message>
        <source>Measured &amp;step time (s):</source>
        <translation>实测单步时间（秒）(&amp;S)：</translation>
    </message>
    <message>
        <source>or t&amp;hroughput (samples/s):</source>
        <translation>或吞吐量（样本/秒）(&amp;H)：</translation>
    </message>
    <message>
        <source>Max allo&amp;cated per GPU (GiB):</source>
        <translation>每 GPU 最大已分配（GiB）(&amp;C)：</translation>
    </message>
    <message>
        <source>Max &amp;reserved per GPU (GiB):</source>
        <translation>每 GPU 最大保留（GiB）(&amp;R)：</translation>
    </message>
</context>
<context>
    <name>zp::ui::ComparePanel</name>
    <message>
        <source>Setup</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Micro batch x accumulation</source>
        <translation>微批量 × 梯度累积</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>能否放下</translation>
    </message>
    <message>
        <source>Peak reserved per GPU</source>
        <translation>每 GPU 峰值保留</translation>
    </message>
    <message>
        <source>Must fit per GPU</source>
        <translation>每 GPU 须容纳</translation>
    </message>
    <message>
        <source>Peaks in</source>
        <translation>峰值出现在</translation>
    </message>
    <message>
        <source>Host RAM per node</source>
        <translation>每节点主机内存</translation>
    </message>
    <message>
        <source>NVMe per node</source>
        <translation>每节点 NVMe</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
    <message>
        <source>GPU-hours (token budget)</source>
        <translation>GPU 时（token 预算）</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>&amp;Pin Current Plan</source>
        <translation>固定当前计划(&amp;P)</translation>
    </message>
    <message>
        <source>Copy as Markdown</source>
        <translation>复制为 Markdown</translation>
    </message>
    <message>
        <source>No plan is pinned. Pin the current plan (Ctrl+D), then change the controls: the pinned plan stays in the views, ghosted, and its figures stay here beside the live plan&apos;s.</source>
        <translation>尚未固定任何计划。先固定当前计划（Ctrl+D），再调整控件：固定的计划以半透明形式留在各视图中，其数值也留在这里，与当前计划并列。</translation>
    </message>
    <message>
        <source>ds_config.json keys that differ</source>
        <translation>不同的 ds_config.json 键</translation>
    </message>
    <message>
        <source>Pin the plan the views show now (Ctrl+D); up to four</source>
        <translation>固定各视图当前显示的计划（Ctrl+D），最多四个</translation>
    </message>
    <message>
        <source>Pinned and live plan figures</source>
        <translation>固定计划与当前计划的数值</translation>
    </message>
    <message>
        <source>Name of pinned plan %1</source>
        <translation>固定计划 %1 的名称</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove this pinned plan</source>
        <translation>移除这个固定计划</translation>
    </message>
    <message>
        <source>Live plan</source>
        <translation>当前计划</translation>
    </message>
    <message>
        <source>GPU-hours for %1 tokens</source>
        <translation>%1 tokens 所需 GPU 时</translation>
    </message>
    <message>
        <source>%1: %2 tokens</source>
        <translation>%1：%2 tokens</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>ds_config.json: the same keys and values in every plan</source>
        <translation>ds_config.json：所有计划的键和值都相同</translation>
    </message>
    <message numerus="yes">
        <source>ds_config.json keys that differ (%n)</source>
        <translation>
            <numerusform>不同的 ds_config.json 键（%n 个）</numerusform>
        </translation>
    </message>
    <message>
        <source>Compared plans</source>
        <translation>对比的计划</translation>
    </message>
    <message>
        <source>The pinned plans beside the live one: their figures and the ds_config.json keys that differ</source>
        <translation>固定的计划与当前计划并列：各项数值以及不同的 ds_config.json 键</translation>
    </message>
    <message>
        <source>GPU-hours to train on each plan&apos;s token budget: 1T tokens for pre-training, 100M for a fine-tune, or the session&apos;s own (--tokens).</source>
        <translation>按各方案的 token 预算训练所需的 GPU 时：预训练 1T 个 token，微调 100M 个，或会话自己的设置（--tokens）。</translation>
    </message>
</context>
<context>
    <name>zp::ui::ConfigPreview</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Export...</source>
        <translation>导出...</translation>
    </message>
    <message>
        <source>What to preview, copy and export</source>
        <translation>要预览、复制和导出的内容</translation>
    </message>
    <message>
        <source>Copy the previewed file to the clipboard</source>
        <translation>将预览的文件复制到剪贴板</translation>
    </message>
    <message>
        <source>Save the previewed file</source>
        <translation>保存预览的文件</translation>
    </message>
    <message>
        <source>For &lt;b&gt;%1&lt;/b&gt; (recommended)</source>
        <translation>适用于 &lt;b&gt;%1&lt;/b&gt;（推荐）</translation>
    </message>
    <message>
        <source>For &lt;b&gt;%1&lt;/b&gt; (clicked; click the recommended bar to go back)</source>
        <translation>适用于 &lt;b&gt;%1&lt;/b&gt;（已点选；点击推荐的柱形可返回）</translation>
    </message>
    <message>
        <source>&lt;b&gt;No config&lt;/b&gt;: %1</source>
        <translation>&lt;b&gt;无配置&lt;/b&gt;：%1</translation>
    </message>
    <message>
        <source>For &lt;b&gt;%1&lt;/b&gt;: does not fit this cluster; nothing fits it</source>
        <translation>适用于 &lt;b&gt;%1&lt;/b&gt;：放不进这个集群；没有任何设置放得下</translation>
    </message>
    <message>
        <source>For &lt;b&gt;%1&lt;/b&gt;: does not fit (needs %2 of %3 per GPU); nothing fits this cluster</source>
        <translation>适用于 &lt;b&gt;%1&lt;/b&gt;：放不下（每 GPU 需要 %2，可用 %3）；这个集群没有任何设置放得下</translation>
    </message>
    <message>
        <source>Note: %1.</source>
        <translation>注意：%1。</translation>
    </message>
</context>
<context>
    <name>zp::ui::ControlPanel</name>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>%1 GPUs</source>
        <translation>%1 个 GPU</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>A model with its exact parameter count and architecture. Changes every memory slice and the step time.</source>
        <translation>具有确切参数量和架构的模型。会改变每一部分内存和单步时间。</translation>
    </message>
    <message>
        <source>Custom size (synthesized)</source>
        <translation>自定义规模（合成）</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Import config.json...</source>
        <translation>导入 config.json...</translation>
    </message>
    <message>
        <source>Read a Hugging Face config.json for the exact architecture</source>
        <translation>读取 Hugging Face 的 config.json 以获得确切架构</translation>
    </message>
    <message>
        <source> B params</source>
        <translation> B 参数</translation>
    </message>
    <message>
        <source>Model size in billions of parameters (log scale, 100M to 2T). Moving it synthesizes an architecture of that size (hidden = 128 x layers).</source>
        <translation>模型规模，单位为十亿参数（对数刻度，100M 到 2T）。拖动时会合成该规模的架构（hidden = 128 x 层数）。</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>规模</translation>
    </message>
    <message>
        <source>The model in numbers: its parameters, layers and hidden size</source>
        <translation>模型的数字：参数量、层数与隐藏维度</translation>
    </message>
    <message>
        <source>The layout in words: its data-parallel groups, or what the layout search chose</source>
        <translation>布局的说明：数据并行组，或布局搜索的选择</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source> GPUs</source>
        <translation> 个 GPU</translation>
    </message>
    <message>
        <source>Data-parallel GPUs in total (log scale). ZeRO partitions model states across all of them.</source>
        <translation>数据并行的 GPU 总数（对数刻度）。ZeRO 在所有这些 GPU 上对模型状态分区。</translation>
    </message>
    <message>
        <source>GPU count</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>GPUs in one node. Communication inside a node uses the intra-node link, across nodes the network.</source>
        <translation>每个节点的 GPU 数。节点内通信使用节点内互联，跨节点通信使用网络。</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>每节点 GPU</translation>
    </message>
    <message>
        <source>GPU model: sets memory, peak 16-bit TFLOP/s and the intra-node link.</source>
        <translation>GPU 型号：决定显存、16 位峰值 TFLOP/s 和节点内互联。</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source>Memory per GPU. The capacity line in the memory view.</source>
        <translation>每 GPU 显存，即内存视图中的容量线。</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source> Gbit/s</source>
        <translation> Gbit/s</translation>
    </message>
    <message>
        <source>Network bandwidth per node, all NICs together (a DGX A100 has 8 x 200 Gbit/s). Limits communication when there is more than one node.</source>
        <translation>每节点的网络带宽，所有网卡合计（DGX A100 为 8 x 200 Gbit/s）。多于一个节点时限制通信。</translation>
    </message>
    <message>
        <source>Inter-node</source>
        <translation>节点间</translation>
    </message>
    <message>
        <source>Link between GPUs in a node, one direction per GPU. Limits communication on one node.</source>
        <translation>节点内 GPU 之间的互联，按每 GPU 单向计。限制单节点内的通信。</translation>
    </message>
    <message>
        <source>Intra-node</source>
        <translation>节点内</translation>
    </message>
    <message>
        <source>Model parallelism</source>
        <translation>模型并行</translation>
    </message>
    <message>
        <source>Tensor parallel size</source>
        <translation>张量并行规模</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Pipeline parallel size</source>
        <translation>流水线并行规模</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>流水线</translation>
    </message>
    <message>
        <source>Interleaved 1F1B: model chunks per pipeline GPU; shrinks the bubble, adds communication. 1: plain 1F1B.</source>
        <translation>交错式 1F1B：每个流水线 GPU 上的模型块数；缩小气泡，但增加通信。1：普通 1F1B。</translation>
    </message>
    <message>
        <source>Virtual pipeline stages</source>
        <translation>虚拟流水线级数</translation>
    </message>
    <message>
        <source>Virtual stages</source>
        <translation>虚拟级数</translation>
    </message>
    <message>
        <source>Sequence parallelism (Megatron)</source>
        <translation>序列并行（Megatron）</translation>
    </message>
    <message>
        <source>Splits the layer norms&apos; and dropouts&apos; activations over the tensor-parallel GPUs too.</source>
        <translation>把层归一化和 dropout 的激活值也切分到张量并行的各 GPU 上。</translation>
    </message>
    <message>
        <source>ZeRO++ (ZeRO-3 setups)</source>
        <translation>ZeRO++（ZeRO-3 方案）</translation>
    </message>
    <message>
        <source>hpZ partition size</source>
        <translation>hpZ 分层分割规模</translation>
    </message>
    <message>
        <source>hpZ</source>
        <translation>hpZ</translation>
    </message>
    <message>
        <source>Quantized weights (qwZ)</source>
        <translation>权重量化（qwZ）</translation>
    </message>
    <message>
        <source>zero_quantized_weights: parameter gathers move int8, half the 16-bit bytes.</source>
        <translation>zero_quantized_weights：参数聚合传输 int8，字节数为 16 位的一半。</translation>
    </message>
    <message>
        <source>Quantized gradients (qgZ)</source>
        <translation>梯度量化（qgZ）</translation>
    </message>
    <message>
        <source>zero_quantized_gradients: gradients reduce as int4, inside the node first, then across nodes.</source>
        <translation>zero_quantized_gradients：梯度以 int4 归约，先在节点内，再跨节点。</translation>
    </message>
    <message>
        <source>Host (per node)</source>
        <translation>主机（每节点）</translation>
    </message>
    <message>
        <source>Host RAM per node. CPU offload keeps optimizer states (and parameters) here.</source>
        <translation>每节点主机内存。CPU 卸载把优化器状态（和参数）放在这里。</translation>
    </message>
    <message>
        <source>CPU RAM</source>
        <translation>CPU 内存</translation>
    </message>
    <message>
        <source>NVMe capacity per node. ZeRO-Infinity (stage 3) can offload states here.</source>
        <translation>每节点 NVMe 容量。ZeRO-Infinity（stage 3）可以把状态卸载到这里。</translation>
    </message>
    <message>
        <source>NVMe</source>
        <translation>NVMe</translation>
    </message>
    <message>
        <source>Pinned offload buffers</source>
        <translation>锁页卸载缓冲区</translation>
    </message>
    <message>
        <source>offload_*.pin_memory: faster copies, but PyTorch rounds each pinned buffer up to a power of two.</source>
        <translation>offload_*.pin_memory：复制更快，但 PyTorch 会把每个锁页缓冲区向上取整到 2 的幂。</translation>
    </message>
    <message>
        <source>Load the model in 16-bit</source>
        <translation>以 16 位加载模型</translation>
    </message>
    <message>
        <source>low_cpu_mem_usage</source>
        <translation>low_cpu_mem_usage</translation>
    </message>
    <message>
        <source>Fine-tuning</source>
        <translation>微调</translation>
    </message>
    <message>
        <source>Full: every weight trained. LoRA: adapters on a frozen 16-bit base (PEFT). QLoRA: adapters on a base quantised to 4 or 8 bits (bitsandbytes).</source>
        <translation>全量：训练所有权重。LoRA：在冻结的 16 位基座上训练适配器（PEFT）。QLoRA：在量化为 4 或 8 位的基座上训练适配器（bitsandbytes）。</translation>
    </message>
    <message>
        <source>full</source>
        <translation>全量</translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>QLoRA</source>
        <translation>QLoRA</translation>
    </message>
    <message>
        <source>Fine-tuning method</source>
        <translation>微调方法</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>LoRA rank r: each adapted Linear(in, out) trains r x (in + out) parameters.</source>
        <translation>LoRA 秩 r：每个加了适配器的 Linear(in, out) 训练 r x (in + out) 个参数。</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>Which Linear modules get adapters: PEFT&apos;s default for the model type, every attention projection, or every Linear but the output layer (all-linear).</source>
        <translation>哪些 Linear 模块加适配器：PEFT 对该模型类型的默认值、所有注意力投影，或除输出层外的所有 Linear（all-linear）。</translation>
    </message>
    <message>
        <source>LoRA target modules</source>
        <translation>LoRA 目标模块</translation>
    </message>
    <message>
        <source>Targets</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>How the frozen base is stored: auto (the training dtype; NF4 for QLoRA), 16-bit, LLM.int8 or 4-bit NF4/FP4.</source>
        <translation>冻结基座的存储方式：auto（训练的数据类型；QLoRA 为 NF4）、16 位、LLM.int8 或 4 位 NF4/FP4。</translation>
    </message>
    <message>
        <source>Base precision</source>
        <translation>基座精度</translation>
    </message>
    <message>
        <source>Base</source>
        <translation>基座</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>bf16/fp16: mixed precision with fp32 master weights; fp32: no master copy.</source>
        <translation>bf16/fp16：带 fp32 主权重的混合精度；fp32：没有主权重副本。</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Optimizer state per parameter: Adam/AdamW/LAMB 8 bytes, Lion/Adagrad/SGD+momentum 4, SGD 0.</source>
        <translation>每个参数的优化器状态：Adam/AdamW/LAMB 8 字节，Lion/Adagrad/带动量 SGD 4 字节，SGD 0。</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> token</translation>
    </message>
    <message>
        <source>Sequence length. Activations grow with it (quadratically without flash attention).</source>
        <translation>序列长度。激活值随之增长（不用 flash attention 时呈平方增长）。</translation>
    </message>
    <message>
        <source>Sequence</source>
        <translation>序列</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Global batch</source>
        <translation>全局批量</translation>
    </message>
    <message>
        <source>Sequences per GPU per forward pass. Auto: the recommender picks it for every setup; a number fixes it.</source>
        <translation>每 GPU 每次前向的序列数。自动：由推荐器为每个方案选择；填入数值则固定。</translation>
    </message>
    <message>
        <source>Micro batch</source>
        <translation>微批量</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Flash attention</source>
        <translation>Flash attention</translation>
    </message>
    <message>
        <source>Flash attention never stores the attention scores (5 a s² b bytes per layer).</source>
        <translation>Flash attention 从不保存注意力分数（每层 5 a s² b 字节）。</translation>
    </message>
    <message>
        <source>fp32 loss up-cast</source>
        <translation>fp32 损失上转型</translation>
    </message>
    <message>
        <source>The loss up-casts the 16-bit logits to fp32 (transformers&apos; default): an fp32 copy of the logits at the loss, often the step&apos;s peak.</source>
        <translation>损失函数把 16 位 logits 上转为 fp32（transformers 的默认行为）：在损失处多一份 fp32 的 logits 副本，常常是单步的峰值。</translation>
    </message>
    <message>
        <source>chunked (Liger)</source>
        <translation>分块（Liger）</translation>
    </message>
    <message>
        <source>Loss kernel</source>
        <translation>损失内核</translation>
    </message>
    <message>
        <source>Fused optimizer (DeepSpeed FusedAdam)</source>
        <translation>融合优化器（DeepSpeed FusedAdam）</translation>
    </message>
    <message>
        <source>DeepSpeed&apos;s fused optimizer (its &quot;optimizer&quot; block). Off: torch.optim&apos;s, whose step allocates temporaries the size of the fp32 partition.</source>
        <translation>DeepSpeed 的融合优化器（其 &quot;optimizer&quot; 配置块）。关闭：使用 torch.optim 的优化器，其步骤会分配与 fp32 分区同样大小的临时张量。</translation>
    </message>
    <message>
        <source>GPU memory kept free: a setup fits when its total is below capacity minus headroom.</source>
        <translation>保持空闲的显存：方案的总量低于容量减去余量时才算放得下。</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>Headroom</source>
        <translation>余量</translation>
    </message>
    <message>
        <source>Model-state accounting: DeepSpeed&apos;s implementation (20 bytes/param at stage 0) or the ZeRO paper&apos;s K = 12 (16 bytes/param).</source>
        <translation>模型状态的计算口径：DeepSpeed 的实现（stage 0 时每参数 20 字节）或 ZeRO 论文的 K = 12（每参数 16 字节）。</translation>
    </message>
    <message>
        <source>DeepSpeed implementation</source>
        <translation>DeepSpeed 实现</translation>
    </message>
    <message>
        <source>ZeRO paper (K = 12)</source>
        <translation>ZeRO 论文（K = 12）</translation>
    </message>
    <message>
        <source>Convention</source>
        <translation>口径</translation>
    </message>
    <message>
        <source>Choose model %1</source>
        <translation>选择模型 %1</translation>
    </message>
    <message>
        <source>Change model size</source>
        <translation>更改模型规模</translation>
    </message>
    <message>
        <source>Choose GPU %1</source>
        <translation>选择 GPU %1</translation>
    </message>
    <message>
        <source>Change GPU memory</source>
        <translation>更改显存</translation>
    </message>
    <message>
        <source>Change inter-node bandwidth</source>
        <translation>更改节点间带宽</translation>
    </message>
    <message>
        <source>Change intra-node link</source>
        <translation>更改节点内互联</translation>
    </message>
    <message>
        <source>Change host RAM</source>
        <translation>更改主机内存</translation>
    </message>
    <message>
        <source>Change NVMe capacity</source>
        <translation>更改 NVMe 容量</translation>
    </message>
    <message>
        <source>Change precision</source>
        <translation>更改精度</translation>
    </message>
    <message>
        <source>Change fine-tuning method</source>
        <translation>更改微调方法</translation>
    </message>
    <message>
        <source>Change LoRA targets</source>
        <translation>更改 LoRA 目标</translation>
    </message>
    <message>
        <source>Change base precision</source>
        <translation>更改基座精度</translation>
    </message>
    <message>
        <source>Change LoRA rank</source>
        <translation>更改 LoRA 秩</translation>
    </message>
    <message>
        <source>Change optimizer</source>
        <translation>更改优化器</translation>
    </message>
    <message>
        <source>Change recompute</source>
        <translation>更改重计算</translation>
    </message>
    <message>
        <source>Change convention</source>
        <translation>更改口径</translation>
    </message>
    <message>
        <source>Change sequence length</source>
        <translation>更改序列长度</translation>
    </message>
    <message>
        <source>Change global batch</source>
        <translation>更改全局批量</translation>
    </message>
    <message>
        <source>Change micro batch</source>
        <translation>更改微批量</translation>
    </message>
    <message>
        <source>Toggle flash attention</source>
        <translation>切换 flash attention</translation>
    </message>
    <message>
        <source>Toggle fp32 loss up-cast</source>
        <translation>切换 fp32 损失上转型</translation>
    </message>
    <message>
        <source>Change loss kernel</source>
        <translation>更改损失内核</translation>
    </message>
    <message>
        <source>Change tensor parallelism</source>
        <translation>更改张量并行</translation>
    </message>
    <message>
        <source>Change pipeline parallelism</source>
        <translation>更改流水线并行</translation>
    </message>
    <message>
        <source>Change virtual pipeline stages</source>
        <translation>更改虚拟流水线级数</translation>
    </message>
    <message>
        <source>Toggle sequence parallelism</source>
        <translation>切换序列并行</translation>
    </message>
    <message>
        <source>Change hpZ partition size</source>
        <translation>更改 hpZ 分层分割规模</translation>
    </message>
    <message>
        <source>Toggle quantized weights</source>
        <translation>切换权重量化</translation>
    </message>
    <message>
        <source>Toggle quantized gradients</source>
        <translation>切换梯度量化</translation>
    </message>
    <message>
        <source>Toggle pinned offload buffers</source>
        <translation>切换锁页卸载缓冲区</translation>
    </message>
    <message>
        <source>Toggle 16-bit model loading</source>
        <translation>切换 16 位模型加载</translation>
    </message>
    <message>
        <source>Toggle low_cpu_mem_usage</source>
        <translation>切换 low_cpu_mem_usage</translation>
    </message>
    <message>
        <source>Toggle fused optimizer</source>
        <translation>切换融合优化器</translation>
    </message>
    <message>
        <source>Change headroom</source>
        <translation>更改余量</translation>
    </message>
    <message>
        <source>Change GPU count</source>
        <translation>更改 GPU 数量</translation>
    </message>
    <message>
        <source>: change the GPU count or the GPUs per node.</source>
        <translation>：请更改 GPU 数量或每节点 GPU 数。</translation>
    </message>
    <message>
        <source>%1 parameters, %2 layers, hidden %3%4</source>
        <translation>%1 参数，%2 层，隐藏维度 %3%4</translation>
    </message>
    <message>
        <source> (architecture synthesized from the size)</source>
        <translation>（架构由规模合成）</translation>
    </message>
    <message>
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
    <message>
        <source>modules: %1</source>
        <translation>模块：%1</translation>
    </message>
    <message>
        <source>Tensor parallelism: each layer&apos;s matrices split over this many GPUs of a node (Megatron). Off: 1. Auto: the recommender chooses.</source>
        <translation>张量并行：每层的矩阵切分到一个节点内这么多个 GPU 上（Megatron）。关闭：1。自动：由推荐器选择。</translation>
    </message>
    <message>
        <source>Pipeline parallelism: the layers split into this many stages (1F1B). DeepSpeed runs it with ZeRO stage 0 or 1 only. Auto: the recommender chooses.</source>
        <translation>流水线并行：各层切分为这么多级（1F1B）。DeepSpeed 只能与 ZeRO stage 0 或 1 一起运行。自动：由推荐器选择。</translation>
    </message>
    <message>
        <source>DeepSpeed-Ulysses (sequence_parallel_size): each sequence split over this many GPUs, all-to-alls around attention; divides the heads. Without tensor or pipeline parallelism.</source>
        <translation>DeepSpeed-Ulysses（sequence_parallel_size）：每条序列切分到这么多个 GPU 上，注意力前后做 all-to-all；须整除注意力头数。不能与张量并行或流水线并行同用。</translation>
    </message>
    <message>
        <source>Ulysses sequence parallel size</source>
        <translation>Ulysses 序列并行大小</translation>
    </message>
    <message>
        <source>Ulysses</source>
        <translation>Ulysses</translation>
    </message>
    <message>
        <source>Expert parallelism (DeepSpeed-MoE ep_size): each GPU holds this share of the experts; divides the experts and the data-parallel GPUs. Models with experts only.</source>
        <translation>专家并行（DeepSpeed-MoE ep_size）：每个 GPU 持有这部分专家；须整除专家数和数据并行 GPU 数。仅适用于含专家的模型。</translation>
    </message>
    <message>
        <source>Expert parallel size</source>
        <translation>专家并行大小</translation>
    </message>
    <message>
        <source>Experts</source>
        <translation>专家</translation>
    </message>
    <message>
        <source>Change Ulysses sequence parallelism</source>
        <translation>更改 Ulysses 序列并行</translation>
    </message>
    <message>
        <source>Change expert parallelism</source>
        <translation>更改专家并行</translation>
    </message>
    <message>
        <source>Chosen: %1</source>
        <translation>已选：%1</translation>
    </message>
    <message>
        <source>Chosen: %1 (%2)</source>
        <translation>已选：%1（%2）</translation>
    </message>
    <message>
        <source>mics_shard_size (MiCS): parameters, gradients and optimizer states are split over groups of this many GPUs and replicated across the groups, so the gathers stay inside a group. ZeRO-3 without offload or ZeRO++.</source>
        <translation>mics_shard_size（MiCS）：参数、梯度和优化器状态在这么多 GPU 的组内切分，并在各组之间复制，因此参数收集留在组内。仅用于不卸载、不开 ZeRO++ 的 ZeRO-3。</translation>
    </message>
    <message>
        <source>MiCS shard size</source>
        <translation>MiCS 分片大小</translation>
    </message>
    <message>
        <source>MiCS</source>
        <translation>MiCS</translation>
    </message>
    <message>
        <source>Change MiCS shard size</source>
        <translation>更改 MiCS 分片大小</translation>
    </message>
    <message>
        <source>zero_hpz_partition_size: a second 16-bit partition over this many GPUs of a node, so the backward gathers over NVLink instead of the network. Costs 2P/size bytes per GPU. auto: the plan tries ZeRO++ off, hpZ over the node and hpZ with qwZ and qgZ across nodes, and keeps the fastest that fits.</source>
        <translation>zero_hpz_partition_size：在一个节点内这么多个 GPU 上保留第二份 16 位分区，使反向传播经 NVLink 而非网络聚合参数。每 GPU 额外占用 2P/size 字节。auto：跨节点时方案依次尝试关闭 ZeRO++、节点内 hpZ、以及 hpZ 加 qwZ 和 qgZ，保留放得下的最快者。</translation>
    </message>
    <message>
        <source>Network cards that bandwidth runs over. A ring of a node&apos;s GPUs across nodes runs at its share of them, at most one card&apos;s rate (one per GPU: each GPU its share).</source>
        <translation>该带宽所经过的网卡数。跨节点的、由一个节点的 GPU 组成的环按其所占网卡份额运行，最多为一块网卡的速率（每 GPU 一块：每个 GPU 得其份额）。</translation>
    </message>
    <message>
        <source>one per GPU</source>
        <translation>每 GPU 一块</translation>
    </message>
    <message>
        <source>NICs per node</source>
        <translation>每节点网卡数</translation>
    </message>
    <message>
        <source>Change NICs per node</source>
        <translation>更改每节点网卡数</translation>
    </message>
    <message>
        <source>Node type</source>
        <translation>节点类型</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Choose node %1</source>
        <translation>选择节点 %1</translation>
    </message>
    <message>
        <source>DeepSpeed</source>
        <translation>DeepSpeed</translation>
    </message>
    <message>
        <source>PyTorch FSDP</source>
        <translation>PyTorch FSDP</translation>
    </message>
    <message>
        <source>FSDP2 (fully_shard)</source>
        <translation>FSDP2（fully_shard）</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>FSDP&apos;s dtypes: an fp32 model with MixedPrecision (the Trainer&apos;s and Accelerate&apos;s bf16), an fp32 model under torch.autocast, or the model loaded in the training dtype.</source>
        <translation>FSDP 的数据类型：fp32 模型加 MixedPrecision（Trainer 和 Accelerate 的 bf16），fp32 模型在 torch.autocast 下运行，或以训练精度加载的模型。</translation>
    </message>
    <message>
        <source>fp32 + MixedPrecision</source>
        <translation>fp32 + MixedPrecision</translation>
    </message>
    <message>
        <source>fp32 + autocast</source>
        <translation>fp32 + autocast</translation>
    </message>
    <message>
        <source>model in 16 bits</source>
        <translation>16 位模型</translation>
    </message>
    <message>
        <source>FSDP dtypes</source>
        <translation>FSDP 数据类型</translation>
    </message>
    <message>
        <source>Change engine</source>
        <translation>更改引擎</translation>
    </message>
    <message>
        <source>Change FSDP dtypes</source>
        <translation>更改 FSDP 数据类型</translation>
    </message>
    <message>
        <source>auto (the faster)</source>
        <translation>自动（取更快者）</translation>
    </message>
    <message>
        <source>Tiled MLP (ALST)</source>
        <translation>分块 MLP（ALST）</translation>
    </message>
    <message>
        <source>DeepSpeed&apos;s TiledMLP: the MLP runs in shards of about hidden-size tokens and keeps only its input; its forward runs again in backward.</source>
        <translation>DeepSpeed 的 TiledMLP：MLP 按约等于隐藏维度个 token分块计算，只保留其输入；其前向在反向时再算一次。</translation>
    </message>
    <message>
        <source>Checkpoints in host RAM</source>
        <translation>检查点放在主机内存</translation>
    </message>
    <message>
        <source>With full recompute, each layer&apos;s checkpointed input waits in host memory between forward and backward (ALST&apos;s activation checkpoint offload; DeepSpeed&apos;s cpu_checkpointing).</source>
        <translation>完全重算时，每层作为检查点的输入在前向与反向之间存放在主机内存中（ALST 的激活检查点卸载；DeepSpeed 的 cpu_checkpointing）。</translation>
    </message>
    <message>
        <source>Expandable segments</source>
        <translation>可扩展段</translation>
    </message>
    <message>
        <source>PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: no cached memory is stranded when an allocation fails.</source>
        <translation>PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True：分配失败时不会有缓存显存被困住无法释放。</translation>
    </message>
    <message>
        <source>64-bit kernel indexing</source>
        <translation>64 位内核索引</translation>
    </message>
    <message>
        <source>FlashAttention-3 and Liger-Kernel with int64 indexing. Off: FlashAttention-2 and older Liger fail once a GPU&apos;s tokens x hidden reach 2^31 elements.</source>
        <translation>FlashAttention-3 和使用 int64 索引的 Liger-Kernel。关闭时：一旦单个 GPU 的 token 数 x 隐藏维度达到 2^31 个元素，FlashAttention-2 和旧版 Liger 会出错。</translation>
    </message>
    <message>
        <source>Toggle tiled MLP</source>
        <translation>切换分块 MLP</translation>
    </message>
    <message>
        <source>Toggle checkpoints in host RAM</source>
        <translation>切换检查点放在主机内存</translation>
    </message>
    <message>
        <source>Toggle expandable segments</source>
        <translation>切换可扩展段</translation>
    </message>
    <message>
        <source>Toggle 64-bit kernel indexing</source>
        <translation>切换 64 位内核索引</translation>
    </message>
    <message>
        <source>Advanced settings: %1</source>
        <translation>高级设置：%1</translation>
    </message>
    <message>
        <source>Show or hide this box&apos;s less used settings. They keep their values while hidden.</source>
        <translation>显示或隐藏此栏中不常用的设置。隐藏时其取值保持不变。</translation>
    </message>
    <message numerus="yes">
        <source>Advanced (%n shown)</source>
        <translation>
            <numerusform>高级（已显示 %n 项）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Advanced (%n more)</source>
        <translation>
            <numerusform>高级（另有 %n 项）</numerusform>
        </translation>
    </message>
    <message>
        <source>A whole node as sold: its GPU, GPUs per node, network and NICs, host RAM, NVMe and host memory bandwidth. Keeps the GPU count, in whole nodes. My cluster: the node differs from every one listed, in a field below or in a rate a session carries (CPU Adam, NVMe, PCIe); choosing it opens the node&apos;s fields.</source>
        <translation>按出售形态的整台节点：其 GPU、每节点 GPU 数、网络与网卡、主机内存、NVMe 和主机内存带宽。保持 GPU 总数，按整节点计。我的集群：节点与列出的都不同（下方某个字段，或会话携带的某个速率：CPU Adam、NVMe、PCIe）；选择它会展开节点的各个字段。</translation>
    </message>
    <message>
        <source>My cluster</source>
        <translation>我的集群</translation>
    </message>
    <message>
        <source>Custom (all controls)</source>
        <translation>自定义（全部控件）</translation>
    </message>
    <message>
        <source>Pre-training</source>
        <translation>预训练</translation>
    </message>
    <message>
        <source>Full fine-tune</source>
        <translation>全量微调</translation>
    </message>
    <message>
        <source>LoRA fine-tune</source>
        <translation>LoRA 微调</translation>
    </message>
    <message>
        <source>QLoRA fine-tune</source>
        <translation>QLoRA 微调</translation>
    </message>
    <message>
        <source>Long context (ALST)</source>
        <translation>长上下文（ALST）</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>What the plan is for. Choosing a job sets its usual precision, optimizer, recompute, sequence and fine-tuning method, and shows the controls that matter for it first; the others stay under each box&apos;s Advanced.</source>
        <translation>这个规划用于什么。选择任务会设置其常用的精度、优化器、重计算、序列长度和微调方法，并优先显示与之相关的控件；其余控件收在各栏的“高级”下。</translation>
    </message>
    <message>
        <source>Planning</source>
        <translation>规划</translation>
    </message>
    <message>
        <source>Choose job</source>
        <translation>选择任务</translation>
    </message>
    <message>
        <source>Where the optimizer&apos;s moments live. Standard: fp32 in the GPU&apos;s allocator. bitsandbytes: 8-bit (a quarter of the bytes); paged (CUDA managed memory, outside the allocator, moved to host RAM when the card is full).</source>
        <translation>优化器动量存放的位置。标准：fp32，位于 GPU 的分配器中。bitsandbytes：8 位（字节数为四分之一）；分页（CUDA 托管内存，在分配器之外，显存不足时移到主机内存）。</translation>
    </message>
    <message>
        <source>standard (fp32)</source>
        <translation>标准（fp32）</translation>
    </message>
    <message>
        <source>8-bit (bitsandbytes)</source>
        <translation>8 位（bitsandbytes）</translation>
    </message>
    <message>
        <source>paged (bitsandbytes)</source>
        <translation>分页（bitsandbytes）</translation>
    </message>
    <message>
        <source>paged 8-bit (bitsandbytes)</source>
        <translation>分页 8 位（bitsandbytes）</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Change optimizer states</source>
        <translation>更改优化器状态</translation>
    </message>
    <message>
        <source>shifted copy (transformers &lt; 4.46)</source>
        <translation>移位副本（transformers &lt; 4.46）</translation>
    </message>
    <message>
        <source>Model returns its KV cache</source>
        <translation>模型返回 KV 缓存</translation>
    </message>
    <message>
        <source>use_cache left on: every layer&apos;s keys and values are returned and kept until the output is dropped. transformers turns it off only with its own gradient checkpointing; FSDP&apos;s or Accelerate&apos;s checkpointing leaves it on.</source>
        <translation>use_cache 保持开启：每层的键和值都会被返回并保留到输出被释放。transformers 只有在使用自身的梯度检查点时才会关闭它；FSDP 或 Accelerate 的检查点不会关闭它。</translation>
    </message>
    <message>
        <source>Loop keeps the last output</source>
        <translation>训练循环保留上一次输出</translation>
    </message>
    <message>
        <source>Toggle KV cache in training</source>
        <translation>切换训练中的 KV 缓存</translation>
    </message>
    <message>
        <source>Toggle kept output</source>
        <translation>切换保留的输出</translation>
    </message>
    <message>
        <source>Checkpoints split over tensor ranks</source>
        <translation>检查点按张量并行切分</translation>
    </message>
    <message>
        <source>With full recompute and tensor parallelism, each tensor-parallel GPU keeps a share of every checkpointed layer input and gathers it back before the layer is recomputed (DeepSpeed&apos;s partition_activations).</source>
        <translation>完全重计算且使用张量并行时，每个张量并行 GPU 只保存每个检查点层输入的一部分，在该层重计算之前再把它收集回来（DeepSpeed 的 partition_activations）。</translation>
    </message>
    <message>
        <source>Toggle checkpoints split over tensor ranks</source>
        <translation>切换检查点按张量并行切分</translation>
    </message>
    <message>
        <source>FP8 matmuls (Transformer Engine)</source>
        <translation>FP8 矩阵乘（Transformer Engine）</translation>
    </message>
    <message>
        <source>Accelerate&apos;s mixed_precision fp8: every Linear whose sizes divide by 16 runs in FP8 on the GPU&apos;s FP8 tensor cores (DelayedScaling, E4M3 forward, E5M2 gradients); each keeps an FP8 copy of its weight for backward. bf16 only; the step time is a peak-ratio estimate.</source>
        <translation>Accelerate 的 mixed_precision fp8：尺寸能被 16 整除的每个 Linear 在 GPU 的 FP8 张量核心上以 FP8 运行（DelayedScaling，前向 E4M3，梯度 E5M2）；每个 Linear 为反向保留一份 FP8 权重副本。仅限 bf16；步时间是按峰值比例的估算。</translation>
    </message>
    <message>
        <source>Toggle FP8 matmuls</source>
        <translation>切换 FP8 矩阵乘</translation>
    </message>
    <message>
        <source>How Transformer Engine scales the FP8 tensors. Per tensor: DelayedScaling, one scale a tensor from its amax history. MXFP8: one scale per 32 elements, a rowwise and a columnwise copy of each tensor (about 2.06 bytes a weight parameter kept for backward); compute capability 10 only (B200, B300, GB200, GB300).</source>
        <translation>Transformer Engine 如何缩放 FP8 张量。按张量：DelayedScaling，每个张量一个缩放因子，取自其 amax 历史。MXFP8：每 32 个元素一个缩放因子，每个张量一份按行和一份按列的副本（为反向保留的权重约每参数 2.06 字节）；仅限计算能力 10（B200、B300、GB200、GB300）。</translation>
    </message>
    <message>
        <source>per tensor (delayed scaling)</source>
        <translation>按张量（延迟缩放）</translation>
    </message>
    <message>
        <source>MXFP8 (blocks of 32)</source>
        <translation>MXFP8（32 个元素一块）</translation>
    </message>
    <message>
        <source>FP8 scaling</source>
        <translation>FP8 缩放</translation>
    </message>
    <message>
        <source>Change FP8 scaling</source>
        <translation>更改 FP8 缩放</translation>
    </message>
    <message>
        <source>What the data pipeline takes to read, tokenize and collate one sample on a process (0: it keeps up). Loading runs beside the GPUs: a step waits only for what it takes past the rest of the step.</source>
        <translation>数据管道在一个进程上读取、分词并整理一个样本所需的时间（0：跟得上）。加载与 GPU 同时进行：一步只等待超出该步其余部分的那段时间。</translation>
    </message>
    <message>
        <source> s a sample</source>
        <translation> 秒/样本</translation>
    </message>
    <message>
        <source>Data pipeline</source>
        <translation>数据管道</translation>
    </message>
    <message>
        <source>Change data pipeline</source>
        <translation>更改数据管道</translation>
    </message>
    <message>
        <source>whole activation</source>
        <translation>完整激活</translation>
    </message>
    <message>
        <source>a t-th (scatter/gather)</source>
        <translation>t 分之一（scatter/gather）</translation>
    </message>
    <message>
        <source>Pipeline send</source>
        <translation>流水线发送</translation>
    </message>
    <message>
        <source>Stage sends</source>
        <translation>阶段发送</translation>
    </message>
    <message>
        <source>Change what a pipeline stage sends</source>
        <translation>更改流水线阶段发送的内容</translation>
    </message>
    <message>
        <source>autograd (DeepSpeed)</source>
        <translation>autograd（DeepSpeed）</translation>
    </message>
    <message>
        <source>main-grad (Megatron-LM)</source>
        <translation>main-grad（Megatron-LM）</translation>
    </message>
    <message>
        <source>fused (Megatron-LM)</source>
        <translation>融合（Megatron-LM）</translation>
    </message>
    <message>
        <source>Gradient accumulation</source>
        <translation>梯度累加</translation>
    </message>
    <message>
        <source>Change gradient accumulation</source>
        <translation>更改梯度累加方式</translation>
    </message>
    <message>
        <source>Where the gradients of a step&apos;s micro batches are summed at ZeRO 0/1. Autograd: DeepSpeed&apos;s engine adds each micro batch&apos;s 16-bit gradient into the last, a pass over the parameters. Main-grad hook: Megatron-LM adds it into its main_grad buffer. Fused: Megatron-LM&apos;s --gradient-accumulation-fusion, inside the weight-gradient GEMM, no pass. fp32 copy: DeepSpeed&apos;s BF16_Optimizer (bf16 at ZeRO 0 with a pipeline) adds it into an fp32 copy every micro batch.</source>
        <translation>ZeRO 0/1 下一步中各微批次的梯度在何处累加。Autograd：DeepSpeed 引擎把每个微批次的 16 位梯度加到上一次的梯度上，需要遍历一遍参数。Main-grad 钩子：Megatron-LM 把梯度加到其 main_grad 缓冲区。融合：Megatron-LM 的 --gradient-accumulation-fusion，在权重梯度 GEMM 内完成，无需额外遍历。fp32 副本：DeepSpeed 的 BF16_Optimizer（ZeRO 0 加流水线并行时的 bf16）每个微批次都把梯度加到一份 fp32 副本中。</translation>
    </message>
    <message>
        <source>fp32 copy (BF16_Optimizer)</source>
        <translation>fp32 副本（BF16_Optimizer）</translation>
    </message>
    <message>
        <source>Without flash attention, how the attention scores are scaled, masked and soft-maxed. Unfused: one kernel each, as Hugging Face&apos;s eager attention runs them, a pass over the scores each. Fused: Megatron&apos;s FusedScaleMaskSoftmax, one kernel.</source>
        <translation>不使用 Flash Attention 时，注意力分数如何缩放、掩码并做 softmax。未融合：每步一个内核（Hugging Face 的 eager 注意力即如此），每步都要读写一遍分数矩阵。融合：Megatron 的 FusedScaleMaskSoftmax，一个内核完成。</translation>
    </message>
    <message>
        <source>fused (Megatron)</source>
        <translation>融合（Megatron）</translation>
    </message>
    <message>
        <source>unfused (eager)</source>
        <translation>未融合（eager）</translation>
    </message>
    <message>
        <source>Softmax</source>
        <translation>Softmax</translation>
    </message>
    <message>
        <source>Change softmax</source>
        <translation>更改 softmax</translation>
    </message>
    <message>
        <source>, activation gelu_new</source>
        <translation>，激活函数 gelu_new</translation>
    </message>
    <message>
        <source>A training loop that keeps &quot;outputs = model(**batch)&quot; holds its logits through the backward and the step, and the previous step&apos;s (and KV cache) through the next forward. The Trainer drops it before the backward.</source>
        <translation>保留 &quot;outputs = model(**batch)&quot; 的训练循环在反向传播和优化器步骤期间持有本步的 logits，并在下一次前向传播期间持有上一步的 logits（及 KV 缓存）。Trainer 在反向传播之前就释放它。</translation>
    </message>
    <message>
        <source>bf16 master weights and optimizer states</source>
        <translation>bf16 主权重和优化器状态</translation>
    </message>
    <message>
        <source>DeepSpeed&apos;s bf16_master_weights_and_grads with bf16_optimizer_states: the master weights, the gradient the optimizer steps and its moments in bf16. bf16 at ZeRO 1-3 with the optimizer on the GPU.</source>
        <translation>DeepSpeed 的 bf16_master_weights_and_grads 加 bf16_optimizer_states：主权重、优化器更新所用的梯度及其动量均为 bf16。仅限 bf16、ZeRO 1-3 且优化器留在 GPU 上。</translation>
    </message>
    <message>
        <source>Toggle bf16 master weights</source>
        <translation>切换 bf16 主权重</translation>
    </message>
    <message>
        <source>What a pipeline stage sends its neighbour from each tensor-parallel GPU: a t-th of the activation, gathered at the receiver (DeepSpeed&apos;s PipelineEngine, Megatron-LM 2021-2022&apos;s scatter/gather), or the whole activation (Megatron-Core).</source>
        <translation>流水线的每个阶段从每个张量并行 GPU 向下一阶段发送的内容：激活的 t 分之一，在接收端聚合（DeepSpeed 的 PipelineEngine、Megatron-LM 2021-2022 的 scatter/gather），或完整的激活（Megatron-Core）。</translation>
    </message>
    <message>
        <source>Where the logits&apos; weight is read, which decides how ZeRO-3 gathers the vocabulary matrix. Module: Hugging Face&apos;s lm_head, gathered for its forward and kept into its backward. Word embedding: Megatron&apos;s GPT reads its tied embedding in the model&apos;s forward; ZeRO-3 keeps it gathered through the forward and the backward.</source>
        <translation>logits 的权重从哪里读取，这决定了 ZeRO-3 如何聚合词表矩阵。模块：Hugging Face 的 lm_head，在其前向时聚合并保留到其反向。词嵌入：Megatron 的 GPT 在模型的前向中读取绑定的词嵌入；ZeRO-3 在整个前向和反向中保持其聚合。</translation>
    </message>
    <message>
        <source>module (Hugging Face)</source>
        <translation>模块（Hugging Face）</translation>
    </message>
    <message>
        <source>word embedding (Megatron)</source>
        <translation>词嵌入（Megatron）</translation>
    </message>
    <message>
        <source>LM head</source>
        <translation>LM 头</translation>
    </message>
    <message>
        <source>Change LM head</source>
        <translation>更改 LM 头</translation>
    </message>
    <message>
        <source>stage3_max_live_parameters: ZeRO-3 prefetches the next modules&apos; parameters until this many are gathered on each GPU, through the forward and the backward. Lower it when a ZeRO-3 run is out of memory in its forward or backward.</source>
        <translation>stage3_max_live_parameters：ZeRO-3 在前向和反向传播中预取后续模块的参数，直到每个 GPU 上聚合的参数达到此数量。ZeRO-3 运行在前向或反向传播中显存不足时调低它。</translation>
    </message>
    <message>
        <source>Live parameters</source>
        <translation>常驻参数</translation>
    </message>
    <message>
        <source>Change live parameters</source>
        <translation>更改常驻参数</translation>
    </message>
    <message>
        <source>%1 (DeepSpeed&apos;s default)</source>
        <translation>%1（DeepSpeed 默认值）</translation>
    </message>
    <message>
        <source>The DeepSpeed release the run uses, where its behaviour changes the plan: stage 3&apos;s host gradient buffer and prefetch to stage3_max_live_parameters (0.6.0), ZeRO-2&apos;s whole-bucket all-reduce (0.12.4), hpZ read by a recomputed layer&apos;s gathers (0.13.2).</source>
        <translation>训练所用的 DeepSpeed 版本，其行为会改变规划之处：stage 3 的主机梯度缓冲区及预取至 stage3_max_live_parameters（0.6.0）、ZeRO-2 的整桶 all-reduce（0.12.4）、重算层的收集读取 hpZ（0.13.2）。</translation>
    </message>
    <message>
        <source>DeepSpeed release</source>
        <translation>DeepSpeed 版本</translation>
    </message>
    <message>
        <source>%1 or later</source>
        <translation>%1 及以后</translation>
    </message>
    <message>
        <source>before %1</source>
        <translation>%1 之前</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 至 %2</translation>
    </message>
    <message>
        <source>set switch by switch</source>
        <translation>逐项设置</translation>
    </message>
    <message>
        <source>Change DeepSpeed release</source>
        <translation>更改 DeepSpeed 版本</translation>
    </message>
    <message>
        <source> GPU</source>
        <translation> 个 GPU</translation>
    </message>
    <message>
        <source>None: one GPU</source>
        <translation>无：单个 GPU</translation>
    </message>
    <message>
        <source>None: data parallel over %1</source>
        <translation>无：在 %1 上做数据并行</translation>
    </message>
    <message>
        <source>Chosen: none, one GPU</source>
        <translation>已选：无，单个 GPU</translation>
    </message>
    <message>
        <source>Chosen: none, data parallel over %1</source>
        <translation>已选：无，在 %1 上做数据并行</translation>
    </message>
    <message>
        <source>FSDP hybrid sharding (per node)</source>
        <translation>FSDP 混合分片（按节点）</translation>
    </message>
    <message>
        <source>Change FSDP hybrid sharding</source>
        <translation>更改 FSDP 混合分片</translation>
    </message>
    <message>
        <source>HYBRID_SHARD: the model states sharded over each node&apos;s GPUs and replicated across nodes; the gathers stay inside the node, each gradient shard is all-reduced across nodes. Off, the recommendation plans both across nodes and keeps the faster.</source>
        <translation>HYBRID_SHARD：模型状态在每个节点的 GPU 上分片并跨节点复制；参数收集留在节点内，每个梯度分片跨节点 all-reduce。未勾选时，推荐会跨节点两种都规划并保留更快的。</translation>
    </message>
    <message>
        <source>The engine the run launches with: DeepSpeed ZeRO, or PyTorch FSDP (FULL_SHARD is ZeRO-3, SHARD_GRAD_OP ZeRO-2, NO_SHARD DDP; no ZeRO-1, ZeRO++, MiCS or NVMe), or FSDP2&apos;s fully_shard (reshard_after_forward True is ZeRO-3, False ZeRO-2).</source>
        <translation>运行所用的引擎：DeepSpeed ZeRO，或 PyTorch FSDP（FULL_SHARD 即 ZeRO-3，SHARD_GRAD_OP 即 ZeRO-2，NO_SHARD 即 DDP；没有 ZeRO-1、ZeRO++、MiCS 和 NVMe），或 FSDP2 的 fully_shard（reshard_after_forward 为 True 即 ZeRO-3，为 False 即 ZeRO-2）。</translation>
    </message>
    <message>
        <source>Sequences per optimizer step (DeepSpeed&apos;s train_batch_size). Auto: 64, or one sequence per data-parallel rank once the long-context job has set it, raised to a multiple of micro batch x data-parallel ranks.</source>
        <translation>每次优化器步骤的序列数（DeepSpeed 的 train_batch_size）。自动：64；长上下文任务设置后为每个数据并行 rank 一条序列；并向上取为 微批量 x 数据并行 rank 数 的倍数。</translation>
    </message>
    <message>
        <source>Activation recompute: none, selective (recompute attention scores), selective-op (torchtitan&apos;s op-level checkpointing: keep every other matmul&apos;s output and the attention output) or full (keep only layer inputs). Auto: the recommender picks none, selective or full for every setup.</source>
        <translation>激活重计算：无、选择性（重算注意力分数）、选择性（算子级，torchtitan 的算子级检查点：保留每隔一个矩阵乘的输出和注意力输出）或完全（只保留各层输入）。自动：由推荐器为每个方案在无、选择性和完全中选择。</translation>
    </message>
    <message>
        <source>fused cross-entropy (flash-attn)</source>
        <translation>融合交叉熵（flash-attn）</translation>
    </message>
    <message>
        <source>Cross-entropy metrics the training loop computes over each micro batch&apos;s logits after its backward, outside autograd: Composer&apos;s train metrics (llm-foundry&apos;s MPT sets two). The Trainer and DeepSpeed&apos;s examples compute none.</source>
        <translation>训练循环在每个微批次的反向传播之后、在 autograd 之外对其 logits 计算的交叉熵指标：Composer 的训练指标（llm-foundry 的 MPT 设置了两个）。Trainer 和 DeepSpeed 的示例不计算这类指标。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Train metrics</source>
        <translation>训练指标</translation>
    </message>
    <message>
        <source>Change train metrics</source>
        <translation>更改训练指标</translation>
    </message>
    <message>
        <source>DataLoader worker processes per training process (TrainingArguments.dataloader_num_workers). Each holds its own host RAM; together they load the data pipeline&apos;s samples in parallel.</source>
        <translation>每个训练进程的数据加载工作进程数（DataLoader 的 num_workers，TrainingArguments.dataloader_num_workers）。每个工作进程占用自己的主机内存；它们并行加载数据管道的样本。</translation>
    </message>
    <message>
        <source>none (main process)</source>
        <translation>无（在主进程中加载）</translation>
    </message>
    <message>
        <source>Data loader workers</source>
        <translation>数据加载工作进程</translation>
    </message>
    <message>
        <source>Change data loader workers</source>
        <translation>更改数据加载工作进程数</translation>
    </message>
    <message>
        <source>from_pretrained(torch_dtype=torch.bfloat16), or transformers v5&apos;s default dtype on a 16-bit checkpoint. Off: fp32, the default before v5, twice the host RAM in every process while loading.</source>
        <translation>from_pretrained(torch_dtype=torch.bfloat16)，或 transformers v5 对 16 位检查点的默认 dtype。关闭：fp32（v5 之前的默认值），加载时每个进程占用两倍主机内存。</translation>
    </message>
    <message>
        <source>The model is built on the meta device, so no checkpoint shard is held beside it while loading: from_pretrained(low_cpu_mem_usage=True), and always from transformers 4.51. Off: the default before 4.51.</source>
        <translation>模型在 meta 设备上构建，加载时不会在模型旁另存检查点分片：from_pretrained(low_cpu_mem_usage=True)，transformers 4.51 起始终如此。关闭：4.51 之前的默认值。</translation>
    </message>
    <message>
        <source>Re-entrant recompute</source>
        <translation>可重入重计算</translation>
    </message>
    <message>
        <source>Toggle re-entrant recompute</source>
        <translation>切换可重入重计算</translation>
    </message>
    <message>
        <source>DeepSpeed with full recompute: each layer is re-run whole in backward, as re-entrant checkpointing does (the Trainer before transformers 5.0). Off: non-reentrant, which stops before a dense layer&apos;s down projection (transformers 5, the exports). Changes nothing for Megatron layouts, mixtures, adapters, FP8, tiled MLPs or a dropout after the MLP; FSDP recomputes through its own checkpointing.</source>
        <translation>DeepSpeed 完全重计算时，反向传播中每层整层重跑，即可重入检查点的做法（transformers 5.0 之前的 Trainer）。关闭：不可重入，在稠密层的下投影之前停止（transformers 5、导出的配置）。对 Megatron 布局、混合专家、适配器、FP8、分块 MLP 或 MLP 之后有 dropout 的模型没有影响；FSDP 使用其自身的检查点重计算。</translation>
    </message>
    <message>
        <source>The transformers release the run uses, where its defaults change the plan: the model&apos;s own loss outside its forward (4.46), every model loaded on the meta device (4.51), the checkpoint&apos;s dtype and non-reentrant gradient checkpointing (5.0). It sets the Host box&apos;s 16-bit load and low_cpu_mem_usage, Re-entrant recompute and the loss.</source>
        <translation>运行所用的 transformers 版本，其默认行为会改变计划：模型自身的损失移出 forward（4.46），所有模型在 meta 设备上加载（4.51），按检查点的 dtype 加载且梯度检查点不可重入（5.0）。它设置主机内存框中的 16 位加载和 low_cpu_mem_usage、可重入重计算以及损失。</translation>
    </message>
    <message>
        <source>transformers release</source>
        <translation>transformers 版本</translation>
    </message>
    <message>
        <source>Change transformers release</source>
        <translation>更改 transformers 版本</translation>
    </message>
    <message>
        <source>Full: the logits of the whole micro batch at once. Chunked (Liger&apos;s fused linear cross-entropy): the loss in chunks, without the full logits. Shifted: transformers before 4.46, whose model shifts a copy of the logits it returns (up-cast to fp32 by Llama and its kin, not by GPT-2, GPT-NeoX, BLOOM or Falcon).</source>
        <translation>完整：一次计算整个微批次的 logits。分块（Liger 的融合线性交叉熵）：分块计算损失，不生成完整 logits。移位：4.46 之前的 transformers，模型为其返回的 logits 生成移位副本（Llama 及其同类模型会上转为 fp32，GPT-2、GPT-NeoX、BLOOM 和 Falcon 不会）。</translation>
    </message>
</context>
<context>
    <name>zp::ui::DiagnosisPanel</name>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>Out of memory in %1</source>
        <translation>%1 中的显存不足</translation>
    </message>
    <message>
        <source>&amp;Close Diagnosis</source>
        <translation>关闭诊断(&amp;C)</translation>
    </message>
    <message>
        <source>GPU %1 tried to allocate %2 with %3 allocated and %4 reserved by PyTorch, %5 free of %6.</source>
        <translation>GPU %1 尝试分配 %2，此时 PyTorch 已分配 %3、保留 %4，%6 中空闲 %5。</translation>
    </message>
    <message>
        <source>What it is: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <source>What to change instead:</source>
        <translation>应改为：</translation>
    </message>
    <message>
        <source>Where: %1</source>
        <translation>位置：%1</translation>
    </message>
    <message>
        <source> (from %1)</source>
        <translation>（依据 %1）</translation>
    </message>
    <message>
        <source>The request: %1 = %2: %3 = %4 (%5% from the request)</source>
        <translation>该请求：%1 = %2：%3 = %4（与请求相差 %5%）</translation>
    </message>
    <message>
        <source>The request: %1 of %2, as the failing line says; the planner has it at %3 = %4</source>
        <translation>该请求：%2 的 %1（如出错的代码行所示）；规划器算得 %3 = %4</translation>
    </message>
    <message>
        <source>The request matches no term of the planner&apos;s step for this run.</source>
        <translation>该请求与规划器对此运行的训练步中任何一项都不匹配。</translation>
    </message>
    <message>
        <source>At that moment</source>
        <translation>该时刻</translation>
    </message>
    <message>
        <source>The log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>The planner</source>
        <translation>规划器</translation>
    </message>
    <message>
        <source>Requested</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Allocated + requested</source>
        <translation>已分配 + 请求</translation>
    </message>
    <message>
        <source>Reserved by PyTorch</source>
        <translation>PyTorch 保留</translation>
    </message>
    <message>
        <source>The planner&apos;s need is %1% above the log&apos;s.</source>
        <translation>规划器的需求比日志高 %1%。</translation>
    </message>
    <message>
        <source>The planner&apos;s need is %1% below the log&apos;s.</source>
        <translation>规划器的需求比日志低 %1%。</translation>
    </message>
    <message>
        <source>The run</source>
        <translation>运行配置</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>the log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>the window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>assumed</source>
        <translation>假定</translation>
    </message>
    <message>
        <source>The planner cannot run this setup: %1</source>
        <translation>规划器无法计算此配置：%1</translation>
    </message>
    <message>
        <source>What would fit (peak of usable; the same GPUs unless a row says more)</source>
        <translation>可容纳的方案（峰值 / 可用；除非某行写明更多 GPU，均为相同 GPU）</translation>
    </message>
    <message>
        <source>No change to try: the planner has no step for this moment.</source>
        <translation>无可尝试的修改：规划器的训练步不含此时刻。</translation>
    </message>
    <message>
        <source>No change to the setup: the cause is not capacity (see above).</source>
        <translation>无需修改配置：原因不是容量不足（见上文）。</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1, fits</source>
        <translation>%1，可容纳</translation>
    </message>
    <message>
        <source>%1, does not fit</source>
        <translation>%1，无法容纳</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Apply: %1</source>
        <translation>应用：%1</translation>
    </message>
    <message>
        <source>Apply %1</source>
        <translation>应用 %1</translation>
    </message>
    <message>
        <source>%1 ran out of memory outside PyTorch&apos;s caching allocator (the message gives no sizes): %2</source>
        <translation>%1 在 PyTorch 缓存分配器之外内存不足（消息未给出大小）：%2</translation>
    </message>
    <message>
        <source>The message gives no request size to match with a term of the step.</source>
        <translation>消息未给出请求大小，无法与训练步的某一项对应。</translation>
    </message>
    <message>
        <source>%1, fits by %2, less than the planner misses at that moment</source>
        <translation>%1，放得下，余 %2，少于规划器在该时刻低估的量</translation>
    </message>
    <message>
        <source>What frees memory there, cheapest first:</source>
        <translation>在该时刻能释放显存的做法，代价最低的在前：</translation>
    </message>
    <message>
        <source>A rank was killed (SIGKILL) and nothing failed on a GPU: %1</source>
        <translation>一个 rank 被终止（SIGKILL），GPU 上没有任何失败：%1</translation>
    </message>
    <message>
        <source>On the host: the planner has %1 per node there, of the node&apos;s %2.</source>
        <translation>主机上：规划器在此时每节点需要 %1，节点共有 %2。</translation>
    </message>
    <message>
        <source>A kill gives no request size; the planner&apos;s host memory needs the run&apos;s model.</source>
        <translation>进程被终止时没有请求大小；规划器的主机内存估算需要该运行的模型。</translation>
    </message>
    <message>
        <source>Host memory in use</source>
        <translation>主机内存占用</translation>
    </message>
    <message>
        <source>The host&apos;s memory</source>
        <translation>主机内存总量</translation>
    </message>
    <message>
        <source>PyTorch&apos;s out-of-memory message, cut before its figures (no sizes to read).</source>
        <translation>PyTorch 的显存不足消息在数字之前被截断（无法读取大小）。</translation>
    </message>
    <message>
        <source>The request: its size cut from the message, %1, as the failing line says; the planner has it at %2 = %3</source>
        <translation>请求：其大小已从消息中截断，按出错行为 %1；规划器对它的计算为 %2 = %3</translation>
    </message>
    <message>
        <source>On the host: the planner has %1 per node at its peak, %2, of the node&apos;s %3.</source>
        <translation>主机上：规划器在其峰值时（%2）每节点需要 %1，节点共有 %3。</translation>
    </message>
</context>
<context>
    <name>zp::ui::GpuLayoutView</name>
    <message>
        <source>Node %1, GPU %2: rank %3
tensor rank %4, data-parallel rank %5, pipeline stage %6</source>
        <translation>节点 %1，GPU %2：rank %3
张量并行 rank %4，数据并行 rank %5，流水线第 %6 级</translation>
    </message>
    <message>
        <source>no traffic</source>
        <translation>无通信</translation>
    </message>
    <message>
        <source>inside a node (NVLink)</source>
        <translation>节点内（NVLink）</translation>
    </message>
    <message>
        <source>crosses the network</source>
        <translation>跨网络</translation>
    </message>
    <message>
        <source>GPU layout</source>
        <translation>GPU 布局</translation>
    </message>
    <message>
        <source>GPU layout drawing: nodes and their GPUs by parallel group</source>
        <translation>GPU 布局图：按并行组显示各节点及其 GPU</translation>
    </message>
    <message>
        <source>No layout: %1</source>
        <translation>无布局：%1</translation>
    </message>
    <message>
        <source>TP %1 x PP %2 x DP %3</source>
        <translation>TP %1 x PP %2 x DP %3</translation>
    </message>
    <message>
        <source>, %1 virtual stages</source>
        <translation>，%1 个虚拟级</translation>
    </message>
    <message>
        <source>, sequence parallel</source>
        <translation>，序列并行</translation>
    </message>
    <message>
        <source> on 1 node x %2 GPUs</source>
        <translation>，1 个节点 x %2 个 GPU</translation>
    </message>
    <message>
        <source> on %1 nodes x %2 GPUs</source>
        <translation>，%1 个节点 x %2 个 GPU</translation>
    </message>
    <message>
        <source>Tensor parallel %1 (outlined): all-gather and reduce-scatter every layer</source>
        <translation>张量并行 %1（描边）：每层 all-gather 和 reduce-scatter</translation>
    </message>
    <message>
        <source>Tensor parallel %1 (outlined): all-reduce every layer</source>
        <translation>张量并行 %1（描边）：每层 all-reduce</translation>
    </message>
    <message>
        <source>Pipeline %1 (colour by stage): point-to-point sends between stages</source>
        <translation>流水线并行 %1（按级着色）：各级之间点对点发送</translation>
    </message>
    <message>
        <source>Data parallel %1 (shade alternates by replica): %2</source>
        <translation>数据并行 %1（按副本交替深浅）：%2</translation>
    </message>
    <message>
        <source>Stages:</source>
        <translation>级：</translation>
    </message>
    <message>
        <source>sequence-parallel group</source>
        <translation>序列并行组</translation>
    </message>
    <message>
        <source>expert-parallel group</source>
        <translation>专家并行组</translation>
    </message>
    <message>
        <source>SP %1 x DP %2 (DeepSpeed-Ulysses)</source>
        <translation>SP %1 x DP %2（DeepSpeed-Ulysses）</translation>
    </message>
    <message>
        <source>, EP %1</source>
        <translation>，EP %1</translation>
    </message>
    <message>
        <source>ZeRO over data x sequence parallel %1 (shade alternates by replica): %2</source>
        <translation>ZeRO 跨数据 x 序列并行 %1（按副本交替深浅）：%2</translation>
    </message>
    <message>
        <source>Sequence parallel %1 (bar under its GPUs, one colour per group, striped when it spans nodes): four all-to-alls per attention layer</source>
        <translation>序列并行 %1（GPU 下方的色条，每组一种颜色，跨节点时为斜纹）：每个注意力层四次 all-to-all</translation>
    </message>
    <message>
        <source>Expert parallel %1 (bar under its GPUs, one colour per group, striped when it spans nodes): token dispatch and combine all-to-alls per MoE layer</source>
        <translation>专家并行 %1（GPU 下方的色条，每组一种颜色，跨节点时为斜纹）：每个 MoE 层的 token 分发与合并 all-to-all</translation>
    </message>
    <message>
        <source>Sequence-parallel groups are %1 consecutive GPUs; their all-to-alls: %2.</source>
        <translation>序列并行组由 %1 个连续的 GPU 组成；其 all-to-all：%2。</translation>
    </message>
    <message>
        <source>Expert-parallel groups are %1 data-parallel ranks, %2 apart; their all-to-alls: %3.</source>
        <translation>专家并行组由 %1 个数据并行 rank 组成，相隔 %2；其 all-to-all：%3。</translation>
    </message>
    <message>
        <source> (%1 of them drawn, evenly spaced)</source>
        <translation>（均匀抽取其中 %1 个绘制）</translation>
    </message>
    <message>
        <source> on 1 node x 1 GPU</source>
        <translation>，1 个节点 x 1 个 GPU</translation>
    </message>
    <message>
        <source> on %1 nodes x 1 GPU</source>
        <translation>，%1 个节点 x 1 个 GPU</translation>
    </message>
    <message>
        <source>One GPU</source>
        <translation>单个 GPU</translation>
    </message>
    <message>
        <source>%1 GPUs in one node</source>
        <translation>%1 个 GPU，位于一个节点</translation>
    </message>
    <message>
        <source>%1 GPUs in %2 nodes of %3</source>
        <translation>%1 个 GPU，分布在 %2 个节点上，每节点 %3 个</translation>
    </message>
    <message>
        <source>%1. %2. Tensor-parallel groups are %3 consecutive GPUs; pipeline stages are %4 ranks apart; data-parallel groups have %5 ranks, %3 apart. Tensor-parallel traffic: %6. Pipeline traffic: %7. Data-parallel traffic (%8): %9.</source>
        <translation>%1。%2。张量并行组由 %3 个连续的 GPU 组成；流水线各级相隔 %4 个 rank；数据并行组有 %5 个 rank，相隔 %3。张量并行通信：%6。流水线通信：%7。数据并行通信（%8）：%9。</translation>
    </message>
</context>
<context>
    <name>zp::ui::HostView</name>
    <message>
        <source>GiB of host RAM per node, at the run&apos;s peak</source>
        <translation>每节点主机内存 GiB（运行期间峰值）</translation>
    </message>
    <message>
        <source>Host RAM per node</source>
        <translation>每节点主机内存</translation>
    </message>
    <message>
        <source>For each setup, a node&apos;s host memory when it peaks over the run, by slice, against the node&apos;s RAM</source>
        <translation>每个方案在运行期间节点主机内存达到峰值时的各部分，与节点内存容量对比</translation>
    </message>
    <message>
        <source>Peaks %1: %2</source>
        <translation>峰值出现%1：%2</translation>
    </message>
    <message>
        <source>%1 GiB of it is pinned memory rounded up to a power of two</source>
        <translation>其中 %1 GiB 是向上取整到 2 的幂的锁页内存</translation>
    </message>
    <message>
        <source>NVMe %1 GiB per node</source>
        <translation>每节点 NVMe %1 GiB</translation>
    </message>
    <message>
        <source>Does not fit the node&apos;s RAM</source>
        <translation>超出节点内存</translation>
    </message>
    <message>
        <source>RAM %1</source>
        <translation>内存 %1</translation>
    </message>
    <message>
        <source>RAM %1 ↑</source>
        <translation>内存 %1 ↑</translation>
    </message>
</context>
<context>
    <name>zp::ui::MainWindow</name>
    <message>
        <source>Recommendation</source>
        <translation>推荐</translation>
    </message>
    <message>
        <source>ds_config.json</source>
        <translation>ds_config.json</translation>
    </message>
    <message>
        <source>Memory vs GPU count</source>
        <translation>显存与 GPU 数量</translation>
    </message>
    <message>
        <source>Memory over one step</source>
        <translation>单步内的显存</translation>
    </message>
    <message>
        <source>Host RAM</source>
        <translation>主机内存</translation>
    </message>
    <message>
        <source>GPU layout</source>
        <translation>GPU 布局</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每 GPU 显存</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>Host RAM per node</source>
        <translation>每节点主机内存</translation>
    </message>
    <message>
        <source>Recommended: %1. %2 candidates evaluated.</source>
        <translation>推荐：%1。共评估 %2 个候选。</translation>
    </message>
    <message>
        <source>Nothing fits: see the recommendation card for what would.</source>
        <translation>没有放得下的方案：如何才能放下，请见推荐卡片。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open Session...</source>
        <translation>打开会话(&amp;O)...</translation>
    </message>
    <message>
        <source>&amp;Save Session</source>
        <translation>保存会话(&amp;S)</translation>
    </message>
    <message>
        <source>Save Session &amp;As...</source>
        <translation>会话另存为(&amp;A)...</translation>
    </message>
    <message>
        <source>&amp;Import config.json...</source>
        <translation>导入 config.json(&amp;I)...</translation>
    </message>
    <message>
        <source>Ctrl+I</source>
        <translation>Ctrl+I</translation>
    </message>
    <message>
        <source>Import &amp;ds_config.json...</source>
        <translation>导入 ds_config.json(&amp;D)...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+I</source>
        <translation>Ctrl+Shift+I</translation>
    </message>
    <message>
        <source>&amp;Export...</source>
        <translation>导出(&amp;E)...</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Save Screens&amp;hot...</source>
        <translation>保存截图(&amp;H)...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <source>Export &amp;View...</source>
        <translation>导出视图(&amp;V)...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>Export &amp;Report...</source>
        <translation>导出报告(&amp;R)...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+R</source>
        <translation>Ctrl+Shift+R</translation>
    </message>
    <message>
        <source>&amp;Calibrate from a Run...</source>
        <translation>根据实际运行校准(&amp;C)...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+L</source>
        <translation>Ctrl+Shift+L</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Copy Config</source>
        <translation>复制配置(&amp;C)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <source>&amp;Preferences...</source>
        <translation>首选项(&amp;P)...</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;How the numbers are computed</source>
        <translation>数字是如何计算的(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About ZeRO Planner</source>
        <translation>关于 ZeRO Planner(&amp;A)</translation>
    </message>
    <message>
        <source>%1[*] — ZeRO Planner</source>
        <translation>%1[*] — ZeRO Planner</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Unsaved Changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>Save changes to %1?</source>
        <translation>保存对 %1 的更改吗？</translation>
    </message>
    <message>
        <source>Edits that are not saved are lost.</source>
        <translation>未保存的编辑将会丢失。</translation>
    </message>
    <message>
        <source>Cannot open session</source>
        <translation>无法打开会话</translation>
    </message>
    <message>
        <source>

The current session is unchanged.</source>
        <translation>

当前会话未作更改。</translation>
    </message>
    <message>
        <source>There is no config to export for this scenario.</source>
        <translation>此场景没有可导出的配置。</translation>
    </message>
    <message>
        <source>Import %1</source>
        <translation>导入 %1</translation>
    </message>
    <message>
        <source>No problems found for %1 GPUs.</source>
        <translation>针对 %1 个 GPU 未发现问题。</translation>
    </message>
    <message>
        <source>

Not loaded into the controls: %1</source>
        <translation>

未载入到控件：%1</translation>
    </message>
    <message>
        <source>Import ds_config.json</source>
        <translation>导入 ds_config.json</translation>
    </message>
    <message>
        <source>JSON (*.json);;All files (*)</source>
        <translation>JSON (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot import ds_config.json</source>
        <translation>无法导入 ds_config.json</translation>
    </message>
    <message>
        <source>ds_config.json diagnostics</source>
        <translation>ds_config.json 诊断</translation>
    </message>
    <message>
        <source>%1 loaded into the controls.</source>
        <translation>%1 已载入到控件。</translation>
    </message>
    <message>
        <source>Open Session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>ZeRO Planner sessions (*.zplan);;All files (*)</source>
        <translation>ZeRO Planner 会话 (*.zplan);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save Session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>plan.zplan</source>
        <translation>plan.zplan</translation>
    </message>
    <message>
        <source>ZeRO Planner sessions (*.zplan)</source>
        <translation>ZeRO Planner 会话 (*.zplan)</translation>
    </message>
    <message>
        <source>Cannot save session</source>
        <translation>无法保存会话</translation>
    </message>
    <message>
        <source>Import Hugging Face config.json</source>
        <translation>导入 Hugging Face config.json</translation>
    </message>
    <message>
        <source>Cannot import config.json</source>
        <translation>无法导入 config.json</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Cannot export</source>
        <translation>无法导出</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>Save Screenshot</source>
        <translation>保存截图</translation>
    </message>
    <message>
        <source>zero-planner.png</source>
        <translation>zero-planner.png</translation>
    </message>
    <message>
        <source>PNG (*.png)</source>
        <translation>PNG (*.png)</translation>
    </message>
    <message>
        <source>Cannot save screenshot</source>
        <translation>无法保存截图</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>unknown view &apos;%1&apos;; views: %2</source>
        <translation>未知视图“%1”；可用视图：%2</translation>
    </message>
    <message>
        <source>Export as %1...</source>
        <translation>导出为 %1...</translation>
    </message>
    <message>
        <source>Copy Table as Markdown</source>
        <translation>将表格复制为 Markdown</translation>
    </message>
    <message>
        <source>Export View: %1</source>
        <translation>导出视图：%1</translation>
    </message>
    <message>
        <source>Cannot export the view</source>
        <translation>无法导出视图</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Export Report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>zero-planner-report.pdf</source>
        <translation>zero-planner-report.pdf</translation>
    </message>
    <message>
        <source>Cannot export the report</source>
        <translation>无法导出报告</translation>
    </message>
    <message>
        <source>How the numbers are computed</source>
        <translation>数字是如何计算的</translation>
    </message>
    <message>
        <source>About ZeRO Planner</source>
        <translation>关于 ZeRO Planner</translation>
    </message>
    <message>
        <source>&lt;b&gt;ZeRO Planner %1&lt;/b&gt;&lt;p&gt;Plan DeepSpeed ZeRO training runs: steady-state and peak memory per GPU, host RAM, NVMe and step time for every stage and offload choice, and a ds_config.json DeepSpeed accepts.&lt;/p&gt;</source>
        <translation>&lt;b&gt;ZeRO Planner %1&lt;/b&gt;&lt;p&gt;规划 DeepSpeed ZeRO 训练：针对每个 stage 和卸载选择，给出每 GPU 的稳态和峰值显存、主机内存、NVMe 和单步时间，以及一份 DeepSpeed 可直接使用的 ds_config.json。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>GPU count</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>One step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Ctrl+D</source>
        <translation>Ctrl+D</translation>
    </message>
    <message>
        <source>Pinned “%1”: change the controls to compare with it.</source>
        <translation>已固定“%1”：调整控件即可与它对比。</translation>
    </message>
    <message>
        <source>Pi&amp;n Plan for Comparison</source>
        <translation>固定计划以便对比(&amp;N)</translation>
    </message>
    <message>
        <source>Dia&amp;gnose a Training Log...</source>
        <translation>诊断训练日志(&amp;G)...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+G</source>
        <translation>Ctrl+Shift+G</translation>
    </message>
    <message>
        <source>Diagnose %1</source>
        <translation>诊断 %1</translation>
    </message>
    <message>
        <source>Diagnosis</source>
        <translation>诊断</translation>
    </message>
    <message>
        <source>Out of memory here: %1</source>
        <translation>此处显存不足：%1</translation>
    </message>
    <message>
        <source>Cannot diagnose the log</source>
        <translation>无法诊断该日志</translation>
    </message>
    <message>
        <source>Diagnose a Training Log</source>
        <translation>诊断训练日志</translation>
    </message>
    <message>
        <source>Training logs (*.log *.txt);;All files (*)</source>
        <translation>训练日志 (*.log *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>No problems found for 1 GPU.</source>
        <translation>针对 1 个 GPU 未发现问题。</translation>
    </message>
    <message>
        <source>FSDP config</source>
        <translation>FSDP 配置</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Per-GPU memory&lt;/h3&gt;&lt;p&gt;&lt;b&gt;Model states&lt;/b&gt; (DeepSpeed&apos;s implementation, bf16/fp16 with Adam): 16-bit parameters 2P, 16-bit gradients 2P, fp32 gradients 4P, fp32 master weights 4P, Adam moments 8P = 20 bytes per parameter without ZeRO. ZeRO-1 partitions the fp32 states over N GPUs (4P + 16P/N), ZeRO-2 also the gradients (2P + 18P/N, DeepSpeed&apos;s estimate_zero2_model_states_mem_needs), ZeRO-3 also the parameters (18P/N plus 4 x the largest layer). The ZeRO paper&apos;s K = 12 convention counts 16 bytes per parameter instead.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Activations&lt;/b&gt;: Korthikanti et al. 2022, s b h (34 + 5 a s / h) bytes per layer, generalised to gated MLPs, grouped-query attention and flash attention, plus the logits (16-bit and the fp32 copy for the loss).&lt;/p&gt;&lt;p&gt;&lt;b&gt;Buffers&lt;/b&gt;: reduce and all-gather buckets (x%1 with overlap_comm, after the Hugging Face DeepSpeed guide), the ZeRO-3 gathered working set. &lt;b&gt;Overhead&lt;/b&gt;: CUDA context (%2 GiB) and the allocator&apos;s cache it cannot free. Each bar is what must fit, split as the step holds it at the moment that decides the fit (its tooltip names the moment); the outline is the step&apos;s peak reserve.&lt;/p&gt;&lt;h3&gt;Peak and fit&lt;/h3&gt;&lt;p&gt;Whether a setup fits is decided on the step&apos;s peak: the memory allocated at every moment of one step (start-up, each forward layer, the loss, each backward layer, the loop&apos;s metrics over the logits when it computes them, the gradient reduce, the optimizer step, the parameter gather), with PyTorch&apos;s caching allocator reserving on top of it a share of the bytes allocated and freed within the step (x%6, ZeRO-3 x%7; activations, allocated in the same sizes every micro step, x%10). &lt;b&gt;Peak reserved&lt;/b&gt; plus the CUDA context is what nvidia-smi shows (the dashed box, and the line in Memory over one step). &lt;b&gt;What must fit&lt;/b&gt; is the peak of allocated memory plus the part of the reserve the allocator cannot free when a request fails (%8% of the cycling bytes, ZeRO-3 %9%, activations %3%) plus the CUDA context, within capacity minus headroom.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Host RAM and NVMe&lt;/b&gt;: each node over the whole run (loading the model, deepspeed.initialize, training, saving a checkpoint): %4 GB per training process, the model as each process loads it, the offloaded states and DeepSpeed&apos;s pinned buffers (rounded up to a power of two, as PyTorch pins them), the NVMe swap pools and the 16-bit model copied to the host on save; the bar is the largest of the four.&lt;/p&gt;&lt;h3&gt;Step time&lt;/h3&gt;&lt;p&gt;6 P tokens + 12 L h s tokens FLOPs at %5% of peak; ring collectives (nccl-tests bus bandwidth) on the slowest link; offload PCIe, CPU Adam and NVMe time.&lt;/p&gt;&lt;p&gt;The README lists every formula with its source.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;每 GPU 显存&lt;/h3&gt;&lt;p&gt;&lt;b&gt;模型状态&lt;/b&gt;（DeepSpeed 的实现，bf16/fp16 配合 Adam）：16 位参数 2P、16 位梯度 2P、fp32 梯度 4P、fp32 主权重 4P、Adam 动量 8P，不用 ZeRO 时每参数共 20 字节。ZeRO-1 把 fp32 状态分区到 N 个 GPU 上（4P + 16P/N），ZeRO-2 再分区梯度（2P + 18P/N，即 DeepSpeed 的 estimate_zero2_model_states_mem_needs），ZeRO-3 再分区参数（18P/N 加上 4 x 最大层）。ZeRO 论文的 K = 12 口径则按每参数 16 字节计。&lt;/p&gt;&lt;p&gt;&lt;b&gt;激活值&lt;/b&gt;：Korthikanti 等 2022，每层 s b h (34 + 5 a s / h) 字节，推广到门控 MLP、分组查询注意力和 flash attention，另加 logits（16 位，以及损失所用的 fp32 副本）。&lt;/p&gt;&lt;p&gt;&lt;b&gt;缓冲区&lt;/b&gt;：归约和 all-gather 桶（启用 overlap_comm 时 x%1，依据 Hugging Face 的 DeepSpeed 指南），以及 ZeRO-3 聚合的工作集。&lt;b&gt;开销&lt;/b&gt;：CUDA 上下文（%2 GiB）和分配器无法释放的缓存。每根柱形是须容纳的量，按单步在决定能否放下的那个时刻的构成拆分（提示框给出该时刻）；描边是单步的峰值保留量。&lt;/p&gt;&lt;h3&gt;峰值与能否放下&lt;/h3&gt;&lt;p&gt;方案能否放下取决于单步的峰值：即一步中每个时刻（启动、每个前向层、损失、每个反向层、训练循环计算 logits 指标时的指标、梯度归约、优化器步骤、参数聚合）已分配的显存，PyTorch 的缓存分配器还会在其上额外保留一步内分配又释放的字节的一部分（x%6，ZeRO-3 x%7；每个微步以相同大小分配的激活值 x%10）。&lt;b&gt;峰值保留量&lt;/b&gt;加上 CUDA 上下文就是 nvidia-smi 显示的数值（虚线框，以及“单步内的显存”中的线）。&lt;b&gt;须容纳的量&lt;/b&gt;是已分配显存的峰值，加上请求失败时分配器无法释放的那部分保留量（循环字节的 %8%，ZeRO-3 为 %9%，激活值为 %3%），再加上 CUDA 上下文，须在容量减去余量之内。&lt;/p&gt;&lt;p&gt;&lt;b&gt;主机内存和 NVMe&lt;/b&gt;：每个节点在整个运行过程中（加载模型、deepspeed.initialize、训练、保存检查点）：每个训练进程 %4 GB、每个进程加载的模型、卸载的状态和 DeepSpeed 的锁页缓冲区（像 PyTorch 锁页时那样向上取整到 2 的幂）、NVMe 交换池，以及保存时复制到主机的 16 位模型；柱形取四者中的最大值。&lt;/p&gt;&lt;h3&gt;单步时间&lt;/h3&gt;&lt;p&gt;6 P tokens + 12 L h s tokens FLOPs，按峰值的 %5% 计算；环形集合通信（nccl-tests 总线带宽）按最慢的链路计；另加卸载的 PCIe、CPU Adam 和 NVMe 时间。&lt;/p&gt;&lt;p&gt;README 列出了每个公式及其出处。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>zp::ui::MemoryView</name>
    <message>
        <source>Peak reserved (nvidia-smi)</source>
        <translation>峰值保留量（nvidia-smi）</translation>
    </message>
    <message>
        <source>Frozen weights</source>
        <translation>冻结权重</translation>
    </message>
    <message>
        <source>Axis cut at 4x GPU memory; bar labels give the peaks</source>
        <translation>坐标轴截断在 4 倍显存处；柱形标签给出峰值</translation>
    </message>
    <message>
        <source>Trained weights</source>
        <translation>训练的权重</translation>
    </message>
    <message>
        <source>of which frozen</source>
        <translation>其中冻结</translation>
    </message>
    <message>
        <source>Peak allocated (max_memory_allocated)</source>
        <translation>峰值已分配（max_memory_allocated）</translation>
    </message>
    <message>
        <source>Peaks in the %1: %2</source>
        <translation>峰值出现在%1阶段：%2</translation>
    </message>
    <message>
        <source>Host RAM %1 GiB, NVMe %2 GiB per node</source>
        <translation>每节点主机内存 %1 GiB，NVMe %2 GiB</translation>
    </message>
    <message>
        <source>Does not fit the GPU</source>
        <translation>超出显存</translation>
    </message>
    <message>
        <source>Does not fit host RAM</source>
        <translation>超出主机内存</translation>
    </message>
    <message>
        <source>Does not fit NVMe</source>
        <translation>超出 NVMe</translation>
    </message>
    <message>
        <source>best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>GiB per GPU: must fit (bars), peak reserved (outlined)</source>
        <translation>每 GPU GiB：须容纳的量（柱形），峰值保留量（描边）</translation>
    </message>
    <message>
        <source>Must fit</source>
        <translation>须容纳</translation>
    </message>
    <message>
        <source>Must fit at the %1: %2</source>
        <translation>须容纳的时刻为%1：%2</translation>
    </message>
    <message>
        <source>Usable: GPU less headroom</source>
        <translation>可用：GPU 显存减去余量</translation>
    </message>
    <message>
        <source>%1 to spare</source>
        <translation>余 %1</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>+%1</source>
        <translation>+%1</translation>
    </message>
    <message>
        <source>mb %1</source>
        <translation>微批量 %1</translation>
    </message>
    <message>
        <source>no recompute</source>
        <translation>不重计算</translation>
    </message>
</context>
<context>
    <name>zp::ui::NewPlanDialog</name>
    <message>
        <source>Train from scratch: 4096 tokens, 4M tokens a step (Llama 2&apos;s recipe)</source>
        <translation>从头训练：序列 4096，每步 4M token（Llama 2 的配方）</translation>
    </message>
    <message>
        <source>Train every weight: batch 64 of 4096 tokens (Llama 2&apos;s SFT)</source>
        <translation>训练全部权重：批量 64，序列 4096（Llama 2 的 SFT）</translation>
    </message>
    <message>
        <source>Adapters on a frozen 16-bit model: r 64 on every linear layer</source>
        <translation>在冻结的 16 位模型上加适配器：所有线性层，r 64</translation>
    </message>
    <message>
        <source>Adapters on a 4-bit (NF4) model: the least GPU memory</source>
        <translation>在 4 位（NF4）模型上加适配器：显存占用最少</translation>
    </message>
    <message>
        <source>Sequences of 128K tokens and more: Ulysses and ALST&apos;s memory savers</source>
        <translation>128K 及以上 token 的序列：Ulysses 与 ALST 的省显存手段</translation>
    </message>
    <message>
        <source>New Plan</source>
        <translation>新建规划</translation>
    </message>
    <message>
        <source>What are you planning?</source>
        <translation>你要规划什么？</translation>
    </message>
    <message>
        <source>On what, and which model?</source>
        <translation>在什么硬件上，用哪个模型？</translation>
    </message>
    <message>
        <source>My cluster (set its fields in the panel)</source>
        <translation>我的集群（在面板中设置其字段）</translation>
    </message>
    <message>
        <source>Hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <source> GPUs</source>
        <translation> 个 GPU</translation>
    </message>
    <message>
        <source>GPU count</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Start planning</source>
        <translation>开始规划</translation>
    </message>
    <message>
        <source> GPU</source>
        <translation> 个 GPU</translation>
    </message>
</context>
<context>
    <name>zp::ui::PlannerDocument</name>
    <message>
        <source>Already %1 plans pinned: remove one in the Compare panel to pin another.</source>
        <translation>已固定 %1 个计划：请先在“对比”面板中移除一个，再固定新的计划。</translation>
    </message>
    <message>
        <source>Pin %1</source>
        <translation>固定 %1</translation>
    </message>
    <message>
        <source>Rename pin to %1</source>
        <translation>将固定计划重命名为 %1</translation>
    </message>
    <message>
        <source>Remove pin %1</source>
        <translation>移除固定计划 %1</translation>
    </message>
</context>
<context>
    <name>zp::ui::PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>The new language is used from the next start of ZeRO Planner.</source>
        <translation>新的语言将在下次启动 ZeRO Planner 时生效。</translation>
    </message>
</context>
<context>
    <name>zp::ui::RecentFiles</name>
    <message>
        <source>O&amp;pen Recent</source>
        <translation>最近打开(&amp;P)</translation>
    </message>
    <message>
        <source>Open Recent</source>
        <translation>最近打开</translation>
    </message>
    <message>
        <source>%1 no longer exists. It is removed from Open Recent.</source>
        <translation>%1 已不存在，已从“最近打开”中移除。</translation>
    </message>
    <message>
        <source>&amp;Clear Menu</source>
        <translation>清空菜单(&amp;C)</translation>
    </message>
</context>
<context>
    <name>zp::ui::RecommendationCard</name>
    <message>
        <source>Copy as Markdown</source>
        <translation>复制为 Markdown</translation>
    </message>
    <message>
        <source>setup</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>why not</source>
        <translation>未选原因</translation>
    </message>
    <message>
        <source>why it does not fit</source>
        <translation>放不下的原因</translation>
    </message>
    <message>
        <source>%1 = compute %2</source>
        <translation>%1 = 计算 %2</translation>
    </message>
    <message>
        <source> + comm. %1</source>
        <translation> + 通信 %1</translation>
    </message>
    <message>
        <source> + offload %1</source>
        <translation> + 卸载 %1</translation>
    </message>
    <message>
        <source>No plan</source>
        <translation>无法规划</translation>
    </message>
    <message>
        <source>Nothing fits</source>
        <translation>没有放得下的方案</translation>
    </message>
    <message>
        <source>No stage, offload or recompute setup fits this cluster. What would make it fit:</source>
        <translation>没有任何 ZeRO 阶段、卸载或重计算方案能放进这个集群。以下改动可以放下：</translation>
    </message>
    <message>
        <source>Recommended: %1</source>
        <translation>推荐：%1</translation>
    </message>
    <message>
        <source>Peak reserved per GPU</source>
        <translation>每 GPU 峰值保留</translation>
    </message>
    <message>
        <source>Must fit per GPU</source>
        <translation>每 GPU 须容纳</translation>
    </message>
    <message>
        <source>Host RAM per node</source>
        <translation>每节点主机内存</translation>
    </message>
    <message>
        <source>NVMe per node</source>
        <translation>每节点 NVMe</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批量</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>%1 (nvidia-smi); peak allocated %2</source>
        <translation>%1（nvidia-smi）；峰值已分配 %2</translation>
    </message>
    <message>
        <source>%1 of %2, peaks %3</source>
        <translation>%1 / %2，峰值在%3时</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 tokens/s, MFU %2%</source>
        <translation>%1 tokens/s，MFU %2%</translation>
    </message>
    <message>
        <source>Peaks in the %1: %2, %3 on top of what stays allocated all run.</source>
        <translation>峰值出现在%1阶段：%2，在全程常驻的显存之上另加 %3。</translation>
    </message>
    <message>
        <source>What must fit is largest in the %1.</source>
        <translation>须容纳的量在%1阶段最大。</translation>
    </message>
    <message>
        <source>What decides its step: %1.</source>
        <translation>决定单步时间的因素：%1。</translation>
    </message>
    <message>
        <source>Why not the others:</source>
        <translation>为什么不选其他方案：</translation>
    </message>
    <message>
        <source>The architecture was synthesized from the size (hidden = 128 x layers); import a config.json for exact activations.</source>
        <translation>架构是根据规模合成的（hidden = 128 x 层数）；导入 config.json 可得到准确的激活值。</translation>
    </message>
    <message>
        <source>ZeRO paper convention (16 bytes/param at stage 0): DeepSpeed itself allocates more (20 bytes/param).</source>
        <translation>ZeRO 论文口径（stage 0 时每参数 16 字节）：DeepSpeed 实际分配得更多（每参数 20 字节）。</translation>
    </message>
    <message>
        <source>Warnings:</source>
        <translation>警告：</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>two sentences, one after the other</comment>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>Headroom per GPU</source>
        <translation>每 GPU 余量</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>%1 of %2 usable</source>
        <translation>%1 / 可用 %2</translation>
    </message>
    <message>
        <source>%1 (compute %2)</source>
        <translation>%1（计算 %2）</translation>
    </message>
    <message>
        <source>Peak reserved %1 is what nvidia-smi shows: %2.</source>
        <translation>峰值保留 %1 即 nvidia-smi 显示的量：%2。</translation>
    </message>
    <message>
        <source>Step: %1.</source>
        <translation>单步：%1。</translation>
    </message>
    <message>
        <source>Paged optimizer states: %1 in CUDA managed memory, outside what must fit: on the GPU while it has room, in host RAM when it has not.</source>
        <translation>分页优化器状态：%1 位于 CUDA 托管内存，不计入必须容纳的部分：显存有空余时留在 GPU 上，不足时移到主机内存。</translation>
    </message>
    <message>
        <source> + waiting for data %1</source>
        <translation> + 等待数据 %1</translation>
    </message>
    <message>
        <source>Largest micro batch as set</source>
        <translation>当前设置下最大微批量</translation>
    </message>
    <message>
        <source>Longest sequence as set</source>
        <translation>当前设置下最长序列</translation>
    </message>
    <message>
        <source>Host: RAM, NVMe and network are the %1&apos;s, not a %2 machine&apos;s: set yours under Host (per node) and Network, or choose its node.</source>
        <translation>主机：内存、NVMe 和网络取自 %1，不是 %2 机器的：请在“主机（每节点）”和“网络”中填入你的机器，或选择它的节点。</translation>
    </message>
</context>
<context>
    <name>zp::ui::ScalingView</name>
    <message>
        <source>GPUs (log scale)</source>
        <translation>GPU 数（对数刻度）</translation>
    </message>
    <message>
        <source>Needed per GPU at the step&apos;s peak (GiB, log scale)</source>
        <translation>单步峰值时每 GPU 所需（GiB，对数刻度）</translation>
    </message>
    <message>
        <source>%1 GPUs</source>
        <translation>%1 个 GPU</translation>
    </message>
    <message>
        <source>Pinned: %1 (%2)</source>
        <translation>已固定：%1（%2）</translation>
    </message>
    <message>
        <source>1 GPU</source>
        <translation>1 个 GPU</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
</context>
<context>
    <name>zp::ui::SequenceView</name>
    <message>
        <source>Longest sequence</source>
        <translation>最长序列</translation>
    </message>
    <message>
        <source>Longest sequence, tokens</source>
        <translation>最长序列（token）</translation>
    </message>
    <message>
        <source>Longest sequence per setup</source>
        <translation>各配置的最长序列</translation>
    </message>
    <message>
        <source>Tokens per second and step time against the sequence length</source>
        <translation>每秒 token 数与步时间随序列长度的变化</translation>
    </message>
    <message>
        <source>Sequence length, tokens</source>
        <translation>序列长度（token）</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>step time, s</source>
        <translation>步时间（秒）</translation>
    </message>
    <message>
        <source>tokens/s (fits)</source>
        <translation>token/秒（可容纳）</translation>
    </message>
    <message>
        <source>tokens/s (does not fit)</source>
        <translation>token/秒（放不下）</translation>
    </message>
    <message>
        <source>step time</source>
        <translation>步时间</translation>
    </message>
    <message>
        <source>Drag the target line, or press Left/Right, to change the sequence length</source>
        <translation>拖动目标线，或按左/右方向键，以更改序列长度</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>The longest sequence each setup fits, and tokens per second and step time against the length</source>
        <translation>每种配置能容纳的最长序列，以及每秒 token 数和步时间随长度的变化</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>NVMe</source>
        <translation>NVMe</translation>
    </message>
    <message>
        <source>int32</source>
        <translation>int32</translation>
    </message>
    <message>
        <source>max</source>
        <translation>上限</translation>
    </message>
    <message>
        <source>longest %1 (%2)</source>
        <translation>最长 %1（%2）</translation>
    </message>
    <message>
        <source>target %1</source>
        <translation>目标 %1</translation>
    </message>
    <message>
        <source>%1 fits no sequence of %2 tokens.</source>
        <translation>%1 连 %2 个 token的序列也放不下。</translation>
    </message>
    <message>
        <source>The target does not fit this setup.</source>
        <translation>目标长度在此配置下放不下。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>One bar per setup at the longest sequence it fits, labelled with what stops the next length</source>
        <translation>每种配置一根柱形，高度为其能容纳的最长序列，标注限制更长序列的因素</translation>
    </message>
    <message>
        <source>For the chosen setup: tokens per second and step time against the sequence length, the longest that fits and the target length</source>
        <translation>所选配置的每秒 token 数和步时间随序列长度的变化，以及能容纳的最长长度和目标长度</translation>
    </message>
    <message>
        <source>Legend of the sequence length curves</source>
        <translation>序列长度曲线的图例</translation>
    </message>
    <message>
        <source>tokens/s where the length fits, where it does not, and the step time</source>
        <translation>可容纳长度下的token/秒、放不下时的token/秒，以及步时间</translation>
    </message>
    <message>
        <source>Ulysses on auto: at degree %1, the one of those the layout takes that reaches furthest.</source>
        <translation>Ulysses 为自动：取并行度 %1，即布局可用的并行度中能达到最长序列的那个。</translation>
    </message>
    <message>
        <source>Ulysses %1</source>
        <translation>Ulysses %1</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>token</translation>
    </message>
    <message>
        <source>without recompute</source>
        <translation>不重计算</translation>
    </message>
    <message>
        <source>with %1 recompute</source>
        <translation>采用%1重计算</translation>
    </message>
    <message>
        <source>%1: at most %2 tokens a sequence (then %3) at micro batch %4 %5, %6 tokens/s there.</source>
        <translation>%1：每个序列最多 %2 个 token（再长受限于 %3），微批量 %4，%5，此时 %6 token/秒。</translation>
    </message>
    <message>
        <source>step time, ms</source>
        <translation>步时间（毫秒）</translation>
    </message>
    <message>
        <source>step time, min</source>
        <translation>步时间（分钟）</translation>
    </message>
    <message>
        <source>step time, h</source>
        <translation>步时间（小时）</translation>
    </message>
    <message>
        <source>step time, days</source>
        <translation>步时间（天）</translation>
    </message>
    <message>
        <source>Layout on auto: at %1, the one of the searched layouts that reaches furthest.</source>
        <translation>布局为自动：在 %1，即搜索过的布局中能达到最长的那个。</translation>
    </message>
    <message>
        <source>TP%1 PP%2</source>
        <translation>TP%1 PP%2</translation>
    </message>
</context>
<context>
    <name>zp::ui::SetupBarChart</name>
    <message>
        <source>Pinned: %1</source>
        <translation>已固定：%1</translation>
    </message>
</context>
<context>
    <name>zp::ui::StepView</name>
    <message>
        <source>Reserved + CUDA context (nvidia-smi)</source>
        <translation>保留量 + CUDA 上下文（nvidia-smi）</translation>
    </message>
    <message>
        <source>GiB per GPU: allocated (stacked), reserved (line)</source>
        <translation>每 GPU GiB：已分配（堆叠），保留量（线）</translation>
    </message>
    <message>
        <source>No timeline for this scenario</source>
        <translation>此场景没有时间线</translation>
    </message>
    <message>
        <source>peak allocated %1 GiB, %2</source>
        <translation>峰值已分配 %1 GiB，%2</translation>
    </message>
    <message>
        <source>peak reserved %1 GiB (nvidia-smi)</source>
        <translation>峰值保留 %1 GiB（nvidia-smi）</translation>
    </message>
    <message>
        <source>%1, micro batch %2, recompute %3: moments of one step</source>
        <translation>%1，微批量 %2，重计算 %3：单步内的各个时刻</translation>
    </message>
    <message>
        <source> (does not fit: %1 GiB must fit, %2 GiB usable)</source>
        <translation>（放不下：须容纳 %1 GiB，可用 %2 GiB）</translation>
    </message>
    <message>
        <source>usable %1</source>
        <translation>可用 %1</translation>
    </message>
    <message>
        <source> on pipeline stage %1 of %2, the one that decides the fit</source>
        <translation>，流水线第 %1 级（共 %2 级），即决定能否放下的一级</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>Usable: GPU less headroom</source>
        <translation>可用：GPU 显存减去余量</translation>
    </message>
</context>
<context>
    <name>zp::ui::TimeView</name>
    <message>
        <source>Seconds per optimizer step</source>
        <translation>每次优化器步骤的秒数</translation>
    </message>
    <message>
        <source>%1 tok/s</source>
        <translation>%1 tok/s</translation>
    </message>
    <message>
        <source>step of %1 tok</source>
        <translation>每步 %1 tok</translation>
    </message>
    <message>
        <source>Axis cut; bar labels give the times</source>
        <translation>坐标轴已截断；柱形标签给出时间</translation>
    </message>
    <message>
        <source>Milliseconds per optimizer step</source>
        <translation>每次优化器步骤的毫秒数</translation>
    </message>
    <message>
        <source>Minutes per optimizer step</source>
        <translation>每次优化器步骤的分钟数</translation>
    </message>
    <message>
        <source>Hours per optimizer step</source>
        <translation>每次优化器步骤的小时数</translation>
    </message>
    <message>
        <source>Days per optimizer step</source>
        <translation>每次优化器步骤的天数</translation>
    </message>
    <message>
        <source>steps differ: compare tok/s</source>
        <translation>各步大小不同：请比较 token/秒</translation>
    </message>
    <message>
        <source>best</source>
        <translation>最佳</translation>
    </message>
</context>
</TS>
