<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>EditCommand</name>
    <message>
        <source>Edit scenario</source>
        <translation>编辑场景</translation>
    </message>
</context>
<context>
    <name>HelpMenu</name>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About vramplan</source>
        <translation>关于 vramplan(&amp;A)</translation>
    </message>
    <message>
        <source>About vramplan</source>
        <translation>关于 vramplan</translation>
    </message>
    <message>
        <source>&lt;b&gt;vramplan&lt;/b&gt; %1&lt;br&gt;Will this training run fit on my GPUs, and what do I change if it doesn&apos;t?&lt;br&gt;&lt;br&gt;Built with Qt %2, running on Qt %3; QCustomPlot %4 draws the charts; nlohmann_json %5 reads and writes the files.&lt;br&gt;&lt;br&gt;vramplan is free software under the GNU General Public License, version 3 or later (GPL-3.0-or-later), with no warranty. Qt is used under the GNU LGPL 3.0, QCustomPlot under the GNU GPL 3.0, nlohmann_json under the MIT licence.</source>
        <translation>&lt;b&gt;vramplan&lt;/b&gt; %1&lt;br&gt;这次训练在我的 GPU 上放得下吗？放不下的话该改什么？&lt;br&gt;&lt;br&gt;基于 Qt %2 构建，运行于 Qt %3；QCustomPlot %4 绘制图表；nlohmann_json %5 读写文件。&lt;br&gt;&lt;br&gt;vramplan 是自由软件，以 GNU 通用公共许可证第 3 版或更高版本（GPL-3.0-or-later）发布，不提供任何担保。Qt 依据 GNU LGPL 3.0 使用，QCustomPlot 依据 GNU GPL 3.0，nlohmann_json 依据 MIT 许可证。</translation>
    </message>
    <message>
        <source>vramplan &amp;Guide</source>
        <translation>vramplan 指南(&amp;G)</translation>
    </message>
    <message>
        <source>How This Is &amp;Computed</source>
        <translation>计算过程(&amp;C)</translation>
    </message>
</context>
<context>
    <name>MeasuredRun</name>
    <message>
        <source>%1: is a folder, not a file of a run</source>
        <translation>%1：是文件夹，不是运行记录文件</translation>
    </message>
    <message>
        <source>%1: cannot be opened</source>
        <translation>%1：无法打开</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>%1 to %2</source>
        <translation>%1 至 %2</translation>
    </message>
    <message>
        <source>Off the top: %1%2 (up to %3)</source>
        <translation>超出图顶：%1%2（最高 %3）</translation>
    </message>
    <message>
        <source>%1: no estimate (the scenario is not valid there)</source>
        <translation>%1：无估算（该处场景无效）</translation>
    </message>
    <message>
        <source>%1: %2 per GPU</source>
        <translation>%1：每 GPU %2</translation>
    </message>
    <message>
        <source>likely %1 to %2</source>
        <translation>可能为 %1 至 %2</translation>
    </message>
    <message>
        <source>balanced experts: %1</source>
        <translation>专家负载均衡时：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The scenario has unsaved changes. Save them first?</source>
        <translation>场景有未保存的更改。要先保存吗？</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>%1, %2 active</source>
        <translation>%1，激活 %2</translation>
    </message>
</context>
<context>
    <name>RunComparison</name>
    <message>
        <source>as planned</source>
        <translation>与计划一致</translation>
    </message>
    <message>
        <source>%1 more than planned</source>
        <translation>比计划多 %1</translation>
    </message>
    <message>
        <source>%1 less than planned</source>
        <translation>比计划少 %1</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>Allocated peak</source>
        <translation>已分配峰值</translation>
    </message>
    <message>
        <source>torch.cuda.max_memory_allocated(): the tensors themselves</source>
        <translation>torch.cuda.max_memory_allocated()：张量本身</translation>
    </message>
    <message>
        <source>Reserved peak</source>
        <translation>已保留峰值</translation>
    </message>
    <message>
        <source>torch.cuda.max_memory_reserved(): what the caching allocator holds</source>
        <translation>torch.cuda.max_memory_reserved()：缓存分配器占用的显存</translation>
    </message>
    <message>
        <source>Device peak</source>
        <translation>设备峰值</translation>
    </message>
    <message>
        <source>What nvidia-smi shows: reserved, the CUDA context and memory beside the allocator</source>
        <translation>nvidia-smi 显示的用量：已保留显存、CUDA 上下文以及分配器之外的显存</translation>
    </message>
    <message>
        <source>Phase of the peak</source>
        <translation>峰值所在阶段</translation>
    </message>
    <message>
        <source>When the allocated peak came, in the words of the report</source>
        <translation>已分配峰值出现的阶段，沿用报告中的原词</translation>
    </message>
    <message>
        <source>none alive at the peak</source>
        <translation>峰值时无存活分配</translation>
    </message>
    <message>
        <source>Placed by these rules, from %1</source>
        <translation>由这些规则归类，数据来自 %1</translation>
    </message>
    <message>
        <source>Planned: activations with the logits and the loss, which a run records as activations</source>
        <translation>计划值：激活值加上 logits 与损失，实际运行把它们记为激活值</translation>
    </message>
    <message>
        <source>Not placed</source>
        <translation>未归类</translation>
    </message>
    <message>
        <source>Bytes of the peak that no rule placed in a component (made before the trace began, or where no phase is known)</source>
        <translation>峰值中未被任何规则归入某一组成部分的字节（在追踪开始之前分配，或所在阶段未知）</translation>
    </message>
    <message numerus="yes">
        <source>%n trace entries</source>
        <translation>
            <numerusform>%n 条追踪记录</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>vramplan::Main</name>
    <message>
        <source>GPU memory planner for training runs</source>
        <translation>训练任务的 GPU 显存规划工具</translation>
    </message>
    <message>
        <source>A *.vramplan.json scenario (or *.vramplan-comparison.json) to open; several scenarios make a comparison</source>
        <translation>要打开的 *.vramplan.json 场景（或 *.vramplan-comparison.json）；给出多个场景即进行对比</translation>
    </message>
    <message>
        <source>Render the window at 1280x800 into FILE.png and exit</source>
        <translation>将窗口以 1280x800 渲染到 FILE.png 后退出</translation>
    </message>
    <message>
        <source>Chart to export: breakdown, batch, sequence, gpus or timeline; with several scenario files or a comparison file, the comparison chart</source>
        <translation>要导出的图表：breakdown、batch、sequence、gpus 或 timeline；给出多个场景文件或一个对比文件时为对比图</translation>
    </message>
    <message>
        <source>Write a chart (png, svg, pdf) or the breakdown table (csv, json, md) and exit</source>
        <translation>写出图表（png、svg、pdf）或显存构成表（csv、json、md）后退出</translation>
    </message>
    <message>
        <source>%1: could not write the screenshot</source>
        <translation>%1：无法写入截图</translation>
    </message>
    <message>
        <source>Recover unsaved work</source>
        <translation>恢复未保存的工作</translation>
    </message>
    <message>
        <source>vramplan did not close cleanly last time. Recover the unsaved scenario?</source>
        <translation>vramplan 上次未正常关闭。要恢复未保存的场景吗？</translation>
    </message>
    <message>
        <source>Cannot open the scenario</source>
        <translation>无法打开场景</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ArchitectureNotes</name>
    <message>
        <source>%1 %2</source>
        <comment>layers of a kind: 36 Gated DeltaNet</comment>
        <translation>%1 层 %2</translation>
    </message>
    <message>
        <source>Gated DeltaNet</source>
        <translation>Gated DeltaNet</translation>
    </message>
    <message>
        <source>Mamba2</source>
        <translation>Mamba2</translation>
    </message>
    <message>
        <source>short conv</source>
        <translation>短卷积</translation>
    </message>
    <message>
        <source>attention + Mamba2</source>
        <translation>注意力 + Mamba2</translation>
    </message>
    <message>
        <source>sparse attention</source>
        <translation>稀疏注意力</translation>
    </message>
    <message>
        <source>full attention</source>
        <translation>全注意力</translation>
    </message>
    <message>
        <source>sliding-window</source>
        <translation>滑动窗口</translation>
    </message>
    <message>
        <source>global attention</source>
        <translation>全局注意力</translation>
    </message>
    <message>
        <source>MLP-only</source>
        <translation>仅 MLP</translation>
    </message>
    <message>
        <source>%1 layers: %2</source>
        <translation>%1 层：%2</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the layer kinds</comment>
        <translation>，</translation>
    </message>
    <message>
        <source>, MoE %1 experts top %2%3</source>
        <translation>，MoE %1 个专家，top %2%3</translation>
    </message>
    <message>
        <source> + shared</source>
        <translation> + 共享专家</translation>
    </message>
    <message>
        <source>Generic decoder (model_type %1): attention and MLP from the standard fields; estimates are generic</source>
        <translation>通用解码器（model_type %1）：注意力与 MLP 取自标准字段；估算为通用估算</translation>
    </message>
    <message>
        <source>Sparse-attention indexer: %1 heads of %2, top %3 keys</source>
        <translation>稀疏注意力索引器：%1 个头，每头 %2 维，top %3 个键</translation>
    </message>
    <message>
        <source>Vision tower: %1 blocks of %2 (%3 M parameters)</source>
        <translation>视觉塔：%1 个块，宽度 %2（%3 M 参数）</translation>
    </message>
    <message>
        <source>Checkpoint: %1 M parameters in its tensors</source>
        <translation>检查点：张量中共 %1 M 参数</translation>
    </message>
    <message>
        <source>MLA: kv rank %1 + rope %2</source>
        <translation>MLA：kv 秩 %1 + rope %2</translation>
    </message>
    <message>
        <source>%1, q rank %2</source>
        <translation>%1，q 秩 %2</translation>
    </message>
    <message>
        <source>%1, full-rank q</source>
        <translation>%1，q 为满秩</translation>
    </message>
    <message>
        <source>q/k RMSNorm per head</source>
        <translation>q/k 逐头 RMSNorm</translation>
    </message>
    <message>
        <source>q/k RMSNorm over all heads</source>
        <translation>q/k 跨全部头的 RMSNorm</translation>
    </message>
    <message>
        <source>q/k L2 norm</source>
        <translation>q/k L2 归一化</translation>
    </message>
    <message>
        <source>All %1 layers slide over %2 tokens</source>
        <translation>全部 %1 层在 %2 个 token 上滑动</translation>
    </message>
    <message>
        <source>%1 of %2 layers slide over %3 tokens</source>
        <translation>%2 层中的 %1 层在 %3 个 token 上滑动</translation>
    </message>
    <message>
        <source>Soft-capping: attention %1, logits %2</source>
        <translation>软截断：注意力 %1，logits %2</translation>
    </message>
    <message>
        <source>Soft-capping: attention %1</source>
        <translation>软截断：注意力 %1</translation>
    </message>
    <message>
        <source>Soft-capping: logits %1</source>
        <translation>软截断：logits %1</translation>
    </message>
    <message>
        <source>Attention sinks (a learned logit per head)</source>
        <translation>注意力汇聚（每头一个可学习的 logit）</translation>
    </message>
    <message>
        <source>Experts in %1 of %2 layers</source>
        <translation>%2 层中有 %1 层使用专家</translation>
    </message>
    <message>
        <source>1 MTP layer in the checkpoint only</source>
        <translation>1 个 MTP 层，仅存在于检查点中</translation>
    </message>
    <message>
        <source>%1 MTP layers in the checkpoint only</source>
        <translation>%1 个 MTP 层，仅存在于检查点中</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::BatchGroup</name>
    <message>
        <source>Batch and sequence</source>
        <translation>批次与序列</translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>Sequences per GPU in one forward and backward pass: activations and logits grow with it</source>
        <translation>每张 GPU 一次前向和反向传播处理的序列数：激活值和 logits 随之增长</translation>
    </message>
    <message>
        <source>Sequence</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Tokens per sequence: activations grow with it, eager attention&apos;s scores with its square</source>
        <translation>每个序列的 token 数：激活值随之增长，eager 注意力的分数矩阵随其平方增长</translation>
    </message>
    <message>
        <source>Grad. accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>gradient accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>Micro-batches whose gradients add up before one optimizer step: a larger global batch at the same memory (with pipeline parallelism, the micro-batches in flight)</source>
        <translation>一次优化器步之前累加梯度的微批次数：以相同显存获得更大的全局批次（流水线并行时即同时在途的微批次数）</translation>
    </message>
    <message>
        <source>Applies to training only (the mode is inference)</source>
        <translation>仅适用于训练（当前模式为推理）</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::BreakdownChart</name>
    <message>
        <source>allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>已保留</translation>
    </message>
    <message>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>likely device</source>
        <translation>设备可能值</translation>
    </message>
    <message>
        <source>Peak as measured</source>
        <translation>实测口径的峰值</translation>
    </message>
    <message>
        <source>at the peak:
%1</source>
        <translation>峰值时刻：
%1</translation>
    </message>
    <message>
        <source>GPU capacity: %1</source>
        <translation>GPU 容量：%1</translation>
    </message>
    <message>
        <source>GPU capacity:
%1</source>
        <comment>on two lines</comment>
        <translation>GPU 容量：
%1</translation>
    </message>
    <message>
        <source>device %1</source>
        <translation>设备 %1</translation>
    </message>
    <message>
        <source>device
%1</source>
        <comment>on two lines</comment>
        <translation>设备
%1</translation>
    </message>
    <message>
        <source>over by %1</source>
        <translation>超出 %1</translation>
    </message>
    <message>
        <source>headroom %1</source>
        <translation>余量 %1</translation>
    </message>
    <message>
        <source>balanced experts: %1</source>
        <translation>专家负载均衡时：%1</translation>
    </message>
    <message>
        <source>Peak, calibrated to your run</source>
        <translation>峰值（已按你的实测校准）</translation>
    </message>
    <message>
        <source>%1
%2
%3
%4 to %5</source>
        <translation>%1
%2
%3
%4 至 %5</translation>
    </message>
    <message>
        <source>balanced experts</source>
        <translation>专家负载均衡时</translation>
    </message>
    <message>
        <source>preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>now %1</source>
        <translation>当前 %1</translation>
    </message>
    <message>
        <source>preview, at the peak:
%1</source>
        <translation>预览，峰值时刻：
%1</translation>
    </message>
    <message>
        <source>Peak if applied</source>
        <translation>应用后的峰值</translation>
    </message>
    <message>
        <source>engine would not start</source>
        <translation>引擎无法启动</translation>
    </message>
    <message>
        <source>budget (%1 %2): %3</source>
        <translation>预算（%1 %2）：%3</translation>
    </message>
    <message>
        <source>likely range of the device total</source>
        <translation>设备总量的可能范围</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::BreakdownToolTip</name>
    <message>
        <source>%1: %2 at %3</source>
        <translation>%1：%2（%3）</translation>
    </message>
    <message>
        <source>… %1 more, %2 together</source>
        <translation>… 另有 %1 项，共 %2</translation>
    </message>
    <message>
        <source>%1 trainable parameters × %2 bytes each on this GPU</source>
        <translation>%1 个可训练参数 × 每个在此 GPU 上占 %2 字节</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::CalibrationDialog</name>
    <message>
        <source>Calibrate from My Run</source>
        <translation>按我的实测校准</translation>
    </message>
    <message>
        <source>Enter the peak your run of this scenario measured. vramplan fits its overhead terms (allocator slack, memory beside the allocator) and, where those cannot explain the difference, scales its activations, so that the estimate reproduces your number. The calibration is saved with the scenario and carries over to nearby settings.</source>
        <translation>输入你按此场景实际运行时测得的峰值。vramplan 会拟合其开销项（分配器余量、分配器之外的显存），若仍不足以解释差异，再缩放激活值，使估算重现你的数值。校准结果随场景保存，并沿用到相近的设置。</translation>
    </message>
    <message>
        <source>torch.cuda.max_memory_allocated()</source>
        <translation>torch.cuda.max_memory_allocated()</translation>
    </message>
    <message>
        <source>torch.cuda.max_memory_reserved()</source>
        <translation>torch.cuda.max_memory_reserved()</translation>
    </message>
    <message>
        <source>nvidia-smi (memory used by the process)</source>
        <translation>nvidia-smi（进程占用的显存）</translation>
    </message>
    <message>
        <source>What you measured:</source>
        <translation>测量的指标：</translation>
    </message>
    <message>
        <source>Peak:</source>
        <translation>峰值：</translation>
    </message>
    <message>
        <source>vramplan estimates:</source>
        <translation>vramplan 估算：</translation>
    </message>
    <message>
        <source>Cannot calibrate: %1.</source>
        <translation>无法校准：%1。</translation>
    </message>
    <message>
        <source>%1 %2 of overhead %3</source>
        <translation>%3开销 %1 %2</translation>
    </message>
    <message>
        <source>in the allocator&apos;s slack</source>
        <translation>分配器余量中的</translation>
    </message>
    <message>
        <source>beside the allocator</source>
        <translation>分配器之外的</translation>
    </message>
    <message>
        <source>activations, logits and temporaries x %1</source>
        <translation>激活值、logits 与临时缓冲区 × %1</translation>
    </message>
    <message>
        <source>The estimate already matches: nothing to fit.</source>
        <translation>估算已与实测一致：无需拟合。</translation>
    </message>
    <message>
        <source>Fit: %1.</source>
        <translation>拟合结果：%1。</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ChartExport</name>
    <message>
        <source>%1: unknown export format: png, svg or pdf for a chart; csv, json or md for a table</source>
        <translation>%1：未知的导出格式：图表可用 png、svg 或 pdf；表格可用 csv、json 或 md</translation>
    </message>
    <message>
        <source>%1: the image could not be encoded</source>
        <translation>%1：无法编码图像</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ChartsPage</name>
    <message>
        <source>Micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>GPU count</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>Breakdown</source>
        <translation>显存构成</translation>
    </message>
    <message>
        <source>Make it fit</source>
        <translation>显存适配建议</translation>
    </message>
    <message>
        <source>Step timeline</source>
        <translation>训练步时间线</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ComparisonActions</name>
    <message>
        <source>&amp;Add Current Scenario</source>
        <translation>添加当前场景(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Open Scenarios to Compare...</source>
        <translation>打开要对比的场景(&amp;O)...</translation>
    </message>
    <message>
        <source>Scenarios to compare</source>
        <translation>要对比的场景</translation>
    </message>
    <message>
        <source>vramplan scenarios (*.vramplan.json *.json)</source>
        <translation>vramplan 场景 (*.vramplan.json *.json)</translation>
    </message>
    <message>
        <source>Open &amp;Comparison...</source>
        <translation>打开对比(&amp;C)...</translation>
    </message>
    <message>
        <source>Open comparison</source>
        <translation>打开对比</translation>
    </message>
    <message>
        <source>vramplan comparisons (*.vramplan-comparison.json *.json);;All files (*)</source>
        <translation>vramplan 对比 (*.vramplan-comparison.json *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&amp;Save Comparison As...</source>
        <translation>对比另存为(&amp;S)...</translation>
    </message>
    <message>
        <source>Save comparison</source>
        <translation>保存对比</translation>
    </message>
    <message>
        <source>vramplan comparisons (*.vramplan-comparison.json)</source>
        <translation>vramplan 对比 (*.vramplan-comparison.json)</translation>
    </message>
    <message>
        <source>Cannot save the comparison</source>
        <translation>无法保存对比</translation>
    </message>
    <message>
        <source>Scenario %1</source>
        <translation>场景 %1</translation>
    </message>
    <message>
        <source>Cannot compare</source>
        <translation>无法对比</translation>
    </message>
    <message>
        <source>Cannot open the comparison</source>
        <translation>无法打开对比</translation>
    </message>
    <message>
        <source>Load “%1” from the comparison</source>
        <translation>从对比中载入“%1”</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ComparisonView</name>
    <message>
        <source>Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Move the selected scenario up</source>
        <translation>将所选场景上移</translation>
    </message>
    <message>
        <source>Move the selected scenario down</source>
        <translation>将所选场景下移</translation>
    </message>
    <message>
        <source>Remove the selected scenario from the comparison</source>
        <translation>从对比中移除所选场景</translation>
    </message>
    <message>
        <source>Double-click a name to rename it; right-click for more (load an entry back into the editor)</source>
        <translation>双击名称可重命名；右键查看更多操作（将某一项载回编辑器）</translation>
    </message>
    <message>
        <source>&amp;Load into Editor</source>
        <translation>载入编辑器(&amp;L)</translation>
    </message>
    <message>
        <source>Make this scenario the one being planned (one undoable step)</source>
        <translation>将此场景设为正在规划的场景（可一步撤销）</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>重命名(&amp;R)</translation>
    </message>
    <message>
        <source>Move &amp;Up</source>
        <translation>上移(&amp;U)</translation>
    </message>
    <message>
        <source>Move &amp;Down</source>
        <translation>下移(&amp;D)</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>移除(&amp;M)</translation>
    </message>
    <message>
        <source>Memory per GPU; dashes: each GPU&apos;s capacity</source>
        <translation>每 GPU 显存；虚线：各自 GPU 的容量</translation>
    </message>
    <message>
        <source>Peak per GPU (device)</source>
        <translation>每 GPU 峰值（设备）</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>放得下</translation>
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
        <source>KV-cache tokens</source>
        <translation>KV 缓存 token 数</translation>
    </message>
    <message>
        <source>Max concurrency (requests of max_model_len)</source>
        <translation>最大并发数（max_model_len 长度的请求）</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ComponentStyle</name>
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
        <source>Logits and loss</source>
        <translation>logits 与损失</translation>
    </message>
    <message>
        <source>Temporary</source>
        <translation>临时缓冲区</translation>
    </message>
    <message>
        <source>Framework</source>
        <translation>框架开销</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ComputedSheet</name>
    <message>
        <source>none of this step&apos;s phases</source>
        <translation>本训练步的任何阶段都没有</translation>
    </message>
    <message>
        <source>paged optimizer states the GPU cannot hold: they stay in host memory (bitsandbytes paged optimizers, cudaMallocManaged)</source>
        <translation>GPU 放不下的分页优化器状态：它们留在主机内存中（bitsandbytes 分页优化器，cudaMallocManaged）</translation>
    </message>
    <message>
        <source>clamped: the total is beyond what can be reported</source>
        <translation>已截断：总量超出可报告的范围</translation>
    </message>
    <message>
        <source>not itemised by the estimator</source>
        <translation>估算器未逐项列出</translation>
    </message>
    <message>
        <source>%1 bytes per trainable parameter × %2 parameters = %3</source>
        <translation>每个可训练参数 %1 字节 × %2 个参数 = %3</translation>
    </message>
    <message>
        <source>beside the caching allocator (nvidia-smi counts it)</source>
        <translation>在缓存分配器之外（nvidia-smi 会计入）</translation>
    </message>
    <message>
        <source>not at the peak; alive in: %1</source>
        <translation>不在峰值时；存活于：%1</translation>
    </message>
    <message>
        <source>How this is computed</source>
        <translation>计算过程</translation>
    </message>
    <message>
        <source>Memory per GPU at the peak (%1): &lt;b&gt;device %2&lt;/b&gt;, the sum of the components below; allocated %3, reserved %4. Each item is the estimator&apos;s own term: its formula, the formula with this run&apos;s numbers, its size and its source. Items shown in grey are alive in other phases of the step and not counted in the peak.</source>
        <translation>峰值时（%1）每张 GPU 的显存：&lt;b&gt;设备 %2&lt;/b&gt;，即下面各组成部分之和；已分配 %3，已保留 %4。每一项都是估算器自己的项：它的公式、代入本次运行数值的公式、大小和出处。灰色的项存活于训练步的其他阶段，不计入峰值。</translation>
    </message>
    <message>
        <source>Symbols of this run, per GPU (after tensor, context and pipeline parallelism): b micro-batch, s tokens of a sequence, h hidden size, a attention heads, kv key/value heads, d head dimension, f feed-forward width, V vocabulary, c bytes per activation element, r LoRA rank, E experts, k experts per token.</source>
        <translation>本次运行的符号，按每张 GPU 计（已按张量并行、上下文并行和流水线并行切分）：b 微批次，s 序列的 token 数，h 隐藏维度，a 注意力头数，kv 键/值头数，d 头维度，f 前馈层宽度，V 词表大小，c 每个激活值元素的字节数，r LoRA rank，E 专家数，k 每个 token 的激活专家数。</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>项</translation>
    </message>
    <message>
        <source>Formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>With this run&apos;s numbers</source>
        <translation>代入本次运行的数值</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>出处</translation>
    </message>
    <message>
        <source>%1 at the peak</source>
        <translation>峰值时的%1</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ControlsPanel</name>
    <message>
        <source>%1 %2 refused: %3</source>
        <translation>%1 %2 未被接受：%3</translation>
    </message>
    <message>
        <source>Change %1</source>
        <translation>更改%1</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2：%3</translation>
    </message>
    <message>
        <source>Post-training plans prompt + response tokens: set them in the Post-training (RL) group</source>
        <translation>后训练按提示加回答的词元数规划：请在“后训练（强化学习）”组中设置</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::CurveChart</name>
    <message>
        <source>Expert imbalance 1–%1×</source>
        <translation>专家负载不均衡 1–%1×</translation>
    </message>
    <message>
        <source>GPU capacity: %1</source>
        <translation>GPU 容量：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a marker: what, where</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>largest that fits</source>
        <translation>可容纳的最大值</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::CurveGraphs</name>
    <message>
        <source>Likely range</source>
        <translation>可能范围</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::CurveMarkers</name>
    <message>
        <source>current</source>
        <translation>当前</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::EnumLabel</name>
    <message>
        <source>train</source>
        <comment>mode</comment>
        <translation>训练</translation>
    </message>
    <message>
        <source>inference</source>
        <comment>mode</comment>
        <translation>推理</translation>
    </message>
    <message>
        <source>fp32</source>
        <comment>precision</comment>
        <translation>fp32</translation>
    </message>
    <message>
        <source>amp_fp16</source>
        <comment>precision</comment>
        <translation>AMP fp16</translation>
    </message>
    <message>
        <source>amp_bf16</source>
        <comment>precision</comment>
        <translation>AMP bf16</translation>
    </message>
    <message>
        <source>fp16_mixed</source>
        <comment>precision</comment>
        <translation>fp16 混合精度</translation>
    </message>
    <message>
        <source>bf16_mixed</source>
        <comment>precision</comment>
        <translation>bf16 混合精度</translation>
    </message>
    <message>
        <source>bf16</source>
        <comment>precision</comment>
        <translation>纯 bf16</translation>
    </message>
    <message>
        <source>fp8_mixed</source>
        <comment>precision</comment>
        <translation>fp8 混合精度</translation>
    </message>
    <message>
        <source>sgd</source>
        <comment>optimizer</comment>
        <translation>SGD</translation>
    </message>
    <message>
        <source>sgd_momentum</source>
        <comment>optimizer</comment>
        <translation>SGD（动量）</translation>
    </message>
    <message>
        <source>adam</source>
        <comment>optimizer</comment>
        <translation>Adam</translation>
    </message>
    <message>
        <source>adamw</source>
        <comment>optimizer</comment>
        <translation>AdamW</translation>
    </message>
    <message>
        <source>adamw_8bit</source>
        <comment>optimizer</comment>
        <translation>8-bit AdamW</translation>
    </message>
    <message>
        <source>paged_adamw</source>
        <comment>optimizer</comment>
        <translation>分页 AdamW</translation>
    </message>
    <message>
        <source>paged_adamw_8bit</source>
        <comment>optimizer</comment>
        <translation>分页 8-bit AdamW</translation>
    </message>
    <message>
        <source>adafactor</source>
        <comment>optimizer</comment>
        <translation>Adafactor</translation>
    </message>
    <message>
        <source>lion</source>
        <comment>optimizer</comment>
        <translation>Lion</translation>
    </message>
    <message>
        <source>muon</source>
        <comment>optimizer</comment>
        <translation>Muon</translation>
    </message>
    <message>
        <source>shampoo</source>
        <comment>optimizer</comment>
        <translation>Shampoo</translation>
    </message>
    <message>
        <source>transformers</source>
        <comment>framework</comment>
        <translation>transformers</translation>
    </message>
    <message>
        <source>pytorch</source>
        <comment>framework</comment>
        <translation>PyTorch</translation>
    </message>
    <message>
        <source>litgpt</source>
        <comment>framework</comment>
        <translation>LitGPT</translation>
    </message>
    <message>
        <source>torchtune</source>
        <comment>framework</comment>
        <translation>torchtune</translation>
    </message>
    <message>
        <source>torchtitan</source>
        <comment>framework</comment>
        <translation>torchtitan</translation>
    </message>
    <message>
        <source>megatron</source>
        <comment>framework</comment>
        <translation>Megatron</translation>
    </message>
    <message>
        <source>deepspeed</source>
        <comment>framework</comment>
        <translation>DeepSpeed</translation>
    </message>
    <message>
        <source>unsloth</source>
        <comment>framework</comment>
        <translation>Unsloth</translation>
    </message>
    <message>
        <source>none</source>
        <comment>offload</comment>
        <translation>不卸载</translation>
    </message>
    <message>
        <source>cpu</source>
        <comment>offload</comment>
        <translation>CPU</translation>
    </message>
    <message>
        <source>nvme</source>
        <comment>offload</comment>
        <translation>NVMe</translation>
    </message>
    <message>
        <source>none</source>
        <comment>recompute</comment>
        <translation>无</translation>
    </message>
    <message>
        <source>selective</source>
        <comment>recompute</comment>
        <translation>选择性</translation>
    </message>
    <message>
        <source>full</source>
        <comment>recompute</comment>
        <translation>完全</translation>
    </message>
    <message>
        <source>eager</source>
        <comment>attention</comment>
        <translation>eager</translation>
    </message>
    <message>
        <source>sdpa</source>
        <comment>attention</comment>
        <translation>SDPA</translation>
    </message>
    <message>
        <source>flash</source>
        <comment>attention</comment>
        <translation>FlashAttention</translation>
    </message>
    <message>
        <source>full</source>
        <comment>fine-tuning</comment>
        <translation>全参数</translation>
    </message>
    <message>
        <source>lora</source>
        <comment>fine-tuning</comment>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>qlora</source>
        <comment>fine-tuning</comment>
        <translation>QLoRA</translation>
    </message>
    <message>
        <source>standard</source>
        <comment>loss</comment>
        <translation>标准</translation>
    </message>
    <message>
        <source>chunked</source>
        <comment>loss</comment>
        <translation>分块</translation>
    </message>
    <message>
        <source>fused_linear</source>
        <comment>loss</comment>
        <translation>融合线性层</translation>
    </message>
    <message>
        <source>none</source>
        <comment>kernels</comment>
        <translation>无</translation>
    </message>
    <message>
        <source>liger</source>
        <comment>kernels</comment>
        <translation>Liger</translation>
    </message>
    <message>
        <source>custom</source>
        <comment>training loop</comment>
        <translation>自定义循环</translation>
    </message>
    <message>
        <source>trainer</source>
        <comment>training loop</comment>
        <translation>Trainer</translation>
    </message>
    <message>
        <source>vllm</source>
        <comment>serving engine</comment>
        <translation>vLLM</translation>
    </message>
    <message>
        <source>sglang</source>
        <comment>serving engine</comment>
        <translation>SGLang</translation>
    </message>
    <message>
        <source>transformers</source>
        <comment>serving engine</comment>
        <translation>transformers</translation>
    </message>
    <message>
        <source>auto</source>
        <comment>KV cache dtype</comment>
        <translation>自动</translation>
    </message>
    <message>
        <source>fp8</source>
        <comment>KV cache dtype</comment>
        <translation>fp8</translation>
    </message>
    <message>
        <source>none</source>
        <comment>weight quantization</comment>
        <translation>不量化</translation>
    </message>
    <message>
        <source>fp8</source>
        <comment>weight quantization</comment>
        <translation>fp8</translation>
    </message>
    <message>
        <source>awq</source>
        <comment>weight quantization</comment>
        <translation>AWQ</translation>
    </message>
    <message>
        <source>gptq</source>
        <comment>weight quantization</comment>
        <translation>GPTQ</translation>
    </message>
    <message>
        <source>mxfp4</source>
        <comment>weight quantization</comment>
        <translation>MXFP4</translation>
    </message>
    <message>
        <source>bitsandbytes</source>
        <comment>weight quantization</comment>
        <translation>bitsandbytes</translation>
    </message>
    <message>
        <source>auto</source>
        <comment>master weights</comment>
        <translation>自动</translation>
    </message>
    <message>
        <source>fp32</source>
        <comment>master weights</comment>
        <translation>fp32</translation>
    </message>
    <message>
        <source>bf16</source>
        <comment>master weights</comment>
        <translation>bf16</translation>
    </message>
    <message>
        <source>fp16</source>
        <comment>master weights</comment>
        <translation>fp16</translation>
    </message>
    <message>
        <source>none</source>
        <comment>master weights</comment>
        <translation>无</translation>
    </message>
    <message>
        <source>auto</source>
        <comment>gradients</comment>
        <translation>自动</translation>
    </message>
    <message>
        <source>fp32</source>
        <comment>gradients</comment>
        <translation>fp32</translation>
    </message>
    <message>
        <source>bf16</source>
        <comment>gradients</comment>
        <translation>bf16</translation>
    </message>
    <message>
        <source>auto</source>
        <comment>optimizer states</comment>
        <translation>自动</translation>
    </message>
    <message>
        <source>fp32</source>
        <comment>optimizer states</comment>
        <translation>fp32</translation>
    </message>
    <message>
        <source>bf16</source>
        <comment>optimizer states</comment>
        <translation>bf16</translation>
    </message>
    <message>
        <source>fp16</source>
        <comment>optimizer states</comment>
        <translation>fp16</translation>
    </message>
    <message>
        <source>fp8</source>
        <comment>optimizer states</comment>
        <translation>fp8</translation>
    </message>
    <message>
        <source>int8</source>
        <comment>optimizer states</comment>
        <translation>int8</translation>
    </message>
    <message>
        <source>int4</source>
        <comment>optimizer states</comment>
        <translation>int4</translation>
    </message>
    <message>
        <source>grpo</source>
        <comment>RL algorithm</comment>
        <translation>GRPO</translation>
    </message>
    <message>
        <source>ppo</source>
        <comment>RL algorithm</comment>
        <translation>PPO</translation>
    </message>
    <message>
        <source>dpo</source>
        <comment>RL algorithm</comment>
        <translation>DPO</translation>
    </message>
    <message>
        <source>orpo</source>
        <comment>RL algorithm</comment>
        <translation>ORPO</translation>
    </message>
    <message>
        <source>kto</source>
        <comment>RL algorithm</comment>
        <translation>KTO</translation>
    </message>
    <message>
        <source>rloo</source>
        <comment>RL algorithm</comment>
        <translation>RLOO</translation>
    </message>
    <message>
        <source>reinforce_pp</source>
        <comment>RL algorithm</comment>
        <translation>REINFORCE++</translation>
    </message>
    <message>
        <source>verl</source>
        <comment>RL framework</comment>
        <translation>verl</translation>
    </message>
    <message>
        <source>trl</source>
        <comment>RL framework</comment>
        <translation>TRL</translation>
    </message>
    <message>
        <source>openrlhf</source>
        <comment>RL framework</comment>
        <translation>OpenRLHF</translation>
    </message>
    <message>
        <source>ms_swift</source>
        <comment>RL framework</comment>
        <translation>ms-swift</translation>
    </message>
    <message>
        <source>colocated</source>
        <comment>rollout placement</comment>
        <translation>共置</translation>
    </message>
    <message>
        <source>separate</source>
        <comment>rollout placement</comment>
        <translation>分离</translation>
    </message>
    <message>
        <source>fused</source>
        <comment>loss</comment>
        <translation>融合内核</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ExportActions</name>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Breakdown chart...</source>
        <translation>显存构成图...</translation>
    </message>
    <message>
        <source>Micro-batch curve...</source>
        <translation>微批次曲线...</translation>
    </message>
    <message>
        <source>Sequence curve...</source>
        <translation>序列长度曲线...</translation>
    </message>
    <message>
        <source>GPU-count curve...</source>
        <translation>GPU 数量曲线...</translation>
    </message>
    <message>
        <source>Step timeline...</source>
        <translation>训练步时间线...</translation>
    </message>
    <message>
        <source>Comparison chart...</source>
        <translation>对比图...</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON (*.json);;Markdown (*.md)</source>
        <translation>CSV (*.csv);;JSON (*.json);;Markdown (*.md)</translation>
    </message>
    <message>
        <source>Breakdown table...</source>
        <translation>显存构成表...</translation>
    </message>
    <message>
        <source>Export table</source>
        <translation>导出表格</translation>
    </message>
    <message>
        <source>Comparison table...</source>
        <translation>对比表...</translation>
    </message>
    <message>
        <source>Export comparison table</source>
        <translation>导出对比表</translation>
    </message>
    <message>
        <source>&amp;Copy Table</source>
        <translation>复制表格(&amp;C)</translation>
    </message>
    <message>
        <source>Breakdown table copied as Markdown</source>
        <translation>已将显存构成表复制为 Markdown</translation>
    </message>
    <message>
        <source>Copy C&amp;hart</source>
        <translation>复制图表(&amp;H)</translation>
    </message>
    <message>
        <source>Chart copied as an image</source>
        <translation>已将图表复制为图像</translation>
    </message>
    <message>
        <source>Cannot export</source>
        <translation>无法导出</translation>
    </message>
    <message>
        <source>Memory per GPU</source>
        <translation>每 GPU 显存</translation>
    </message>
    <message>
        <source>Memory vs micro-batch</source>
        <translation>显存随微批次的变化</translation>
    </message>
    <message>
        <source>Memory vs sequence length</source>
        <translation>显存随序列长度的变化</translation>
    </message>
    <message>
        <source>Memory vs GPU count</source>
        <translation>显存随 GPU 数量的变化</translation>
    </message>
    <message>
        <source>Memory through one training step</source>
        <translation>一个训练步内的显存</translation>
    </message>
    <message>
        <source>Scenarios compared: memory per GPU</source>
        <translation>场景对比：每 GPU 显存</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a chart&apos;s title: the scenario, the chart</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>The comparison is empty: add scenarios first (Compare &gt; Add Current Scenario).</source>
        <translation>对比为空：请先添加场景（对比 &gt; 添加当前场景）。</translation>
    </message>
    <message>
        <source>Concurrency curve...</source>
        <translation>并发数曲线...</translation>
    </message>
    <message>
        <source>KV-token curve...</source>
        <translation>KV token 曲线...</translation>
    </message>
    <message>
        <source>Tensor-parallel curve...</source>
        <translation>张量并行曲线...</translation>
    </message>
    <message>
        <source>%1: unknown chart (breakdown, batch, sequence, gpus, timeline or comparison; for a server concurrency, kv-tokens or tensor-parallel)</source>
        <translation>%1：未知图表（breakdown、batch、sequence、gpus、timeline 或 comparison；推理服务为 concurrency、kv-tokens 或 tensor-parallel）</translation>
    </message>
    <message>
        <source>%1: the scenario has no inference server (choose an engine in inference mode); its curves are batch, sequence and gpus</source>
        <translation>%1：该场景没有推理服务（请在推理模式下选择引擎）；其曲线为 batch、sequence 和 gpus</translation>
    </message>
    <message>
        <source>%1: an inference server has no such curve; its curves are concurrency, kv-tokens and tensor-parallel</source>
        <translation>%1：推理服务没有这条曲线；其曲线为 concurrency、kv-tokens 和 tensor-parallel</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::FileActions</name>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open...</source>
        <translation>打开(&amp;O)...</translation>
    </message>
    <message>
        <source>Open scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>vramplan scenarios (*.vramplan.json *.json);;All files (*)</source>
        <translation>vramplan 场景 (*.vramplan.json *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As...</source>
        <translation>另存为(&amp;A)...</translation>
    </message>
    <message>
        <source>&amp;Import Hugging Face config.json...</source>
        <translation>导入 Hugging Face config.json(&amp;I)...</translation>
    </message>
    <message>
        <source>Import a Hugging Face config.json</source>
        <translation>导入 Hugging Face config.json</translation>
    </message>
    <message>
        <source>config.json (*.json)</source>
        <translation>config.json (*.json)</translation>
    </message>
    <message>
        <source>Import Checkpoint &amp;Folder...</source>
        <translation>导入检查点文件夹(&amp;F)...</translation>
    </message>
    <message>
        <source>Import a checkpoint folder (config.json and safetensors)</source>
        <translation>导入检查点文件夹（config.json 与 safetensors）</translation>
    </message>
    <message>
        <source>Import the model config?</source>
        <translation>导入模型配置？</translation>
    </message>
    <message>
        <source>%1 is a model config (a Hugging Face config.json), not a scenario. Import its model into the current scenario?</source>
        <translation>%1 是模型配置（Hugging Face config.json），不是场景。要将其模型导入当前场景吗？</translation>
    </message>
    <message>
        <source>Cannot open the scenario</source>
        <translation>无法打开场景</translation>
    </message>
    <message>
        <source>Cannot save the scenario</source>
        <translation>无法保存场景</translation>
    </message>
    <message>
        <source>Save scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>vramplan scenarios (*.vramplan.json)</source>
        <translation>vramplan 场景 (*.vramplan.json)</translation>
    </message>
    <message>
        <source>Cannot import the config</source>
        <translation>无法导入配置</translation>
    </message>
    <message>
        <source>Import %1</source>
        <translation>导入 %1</translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation>自动保存失败：%1</translation>
    </message>
    <message>
        <source>Recover unsaved work</source>
        <translation>恢复未保存的工作</translation>
    </message>
    <message>
        <source>Imported %1 from %2</source>
        <translation>已从 %2 导入 %1</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::FitAdvisorPanel</name>
    <message>
        <source>Make it fit</source>
        <translation>显存适配建议</translation>
    </message>
    <message>
        <source>Show or hide the suggestions</source>
        <translation>显示或隐藏建议</translation>
    </message>
    <message>
        <source>The solvers&apos; answers for the scenario as it is: the largest micro-batch and the longest sequence that fit, and the fewest GPUs of this layout that do</source>
        <translation>求解器对当前场景的回答：放得下的最大微批次和最长序列，以及按此布局放得下所需的最少 GPU 数</translation>
    </message>
    <message>
        <source>Updating: these answers are of the previous scenario; the search for the new one is under way</source>
        <translation>正在更新：这些结果属于上一个场景，新场景的搜索正在进行</translation>
    </message>
    <message>
        <source>Nothing fits, with any change searched. The nearest:</source>
        <translation>搜索过的任何改动都放不下。最接近的是：</translation>
    </message>
    <message>
        <source>Nothing fits, with any change searched.</source>
        <translation>搜索过的任何改动都放不下。</translation>
    </message>
    <message>
        <source>Serving %1 requests of %2 tokens at once, cheapest first (GiB of GPU memory rented)</source>
        <translation>同时服务 %1 个 %2 token 的请求，最便宜的优先（按租用的 GPU 显存 GiB 计）</translation>
    </message>
    <message>
        <source>The nearest fits on one %1</source>
        <translation>最接近的方案在一张 %1 上放得下</translation>
    </message>
    <message>
        <source>The nearest fits on no GPU of the catalog</source>
        <translation>最接近的方案在目录中的任何 GPU 上都放不下</translation>
    </message>
    <message>
        <source> &amp;nbsp; &lt;i&gt;time: per token, against now&lt;/i&gt;</source>
        <translation> &amp;nbsp; &lt;i&gt;时间：每 token，相对当前&lt;/i&gt;</translation>
    </message>
    <message>
        <source>over by %1 · %2</source>
        <translation>超出 %1 · %2</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Peak %1 per GPU: over by %2, the least of everything searched.</source>
        <translation>每 GPU 峰值 %1：超出 %2，是所有搜索结果中最少的。</translation>
    </message>
    <message>
        <source>Peak %1 per GPU, headroom %2.</source>
        <translation>每 GPU 峰值 %1，余量 %2。</translation>
    </message>
    <message>
        <source>the step time per token unknown</source>
        <translation>每 token 的训练步时间未知</translation>
    </message>
    <message>
        <source>%1 the step time per token</source>
        <translation>每 token 的训练步时间 %1</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;%2&lt;br&gt;%3: %4&lt;/p&gt;&lt;p&gt;&lt;span style=&quot;color:%5&quot;&gt;&amp;#9632;&lt;/span&gt; %6: %7&lt;/p&gt;&lt;p&gt;%8&lt;/p&gt;&lt;p&gt;&lt;i&gt;%9&lt;/i&gt;&lt;/p&gt;</source>
        <comment>a suggestion&apos;s tooltip</comment>
        <translation>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;%2&lt;br&gt;%3：%4&lt;/p&gt;&lt;p&gt;&lt;span style=&quot;color:%5&quot;&gt;&amp;#9632;&lt;/span&gt; %6：%7&lt;/p&gt;&lt;p&gt;%8&lt;/p&gt;&lt;p&gt;&lt;i&gt;%9&lt;/i&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Click or press Enter to apply it (one undo step); hover to preview it on the breakdown.</source>
        <translation>单击或按 Enter 应用（可一步撤销）；悬停可在显存构成图上预览。</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>One way</source>
        <translation>1 种方案</translation>
    </message>
    <message>
        <source>%1 ways</source>
        <translation>%1 种方案</translation>
    </message>
    <message>
        <source>One other way</source>
        <translation>另有 1 种方案</translation>
    </message>
    <message>
        <source>%1 other ways</source>
        <translation>另有 %1 种方案</translation>
    </message>
    <message>
        <source>Serves it as it is. %1 that serve it (%2 candidates searched).</source>
        <translation>当前即可满足服务需求。%1能满足（搜索了 %2 个候选）。</translation>
    </message>
    <message>
        <source>Does not serve it as it is, nor does any change searched (%1 candidates).</source>
        <translation>当前无法满足服务需求，搜索过的任何改动也不行（%1 个候选）。</translation>
    </message>
    <message>
        <source>Does not serve it as it is. %1 to serve it (%2 candidates searched).</source>
        <translation>当前无法满足服务需求。%1可满足（搜索了 %2 个候选）。</translation>
    </message>
    <message>
        <source>Fits, headroom %1. Nothing else fits (%2 candidates searched).</source>
        <translation>放得下，余量 %1。没有其他放得下的方案（搜索了 %2 个候选）。</translation>
    </message>
    <message>
        <source>Fits, headroom %1. %2 that fit (%3 candidates searched).</source>
        <translation>放得下，余量 %1。%2也放得下（搜索了 %3 个候选）。</translation>
    </message>
    <message>
        <source>Over by %1. Nothing fits (%2 candidates searched).</source>
        <translation>超出 %1。没有放得下的方案（搜索了 %2 个候选）。</translation>
    </message>
    <message>
        <source>Over by %1. %2 to fit (%3 candidates searched).</source>
        <translation>超出 %1。%2可以放下（搜索了 %3 个候选）。</translation>
    </message>
    <message>
        <source>Apply suggestion: %1</source>
        <translation>应用建议：%1</translation>
    </message>
    <message>
        <source>No change searched fits these GPUs. The nearest, which fits on a larger GPU:</source>
        <translation>搜索过的改动在这些 GPU 上都放不下。最接近的方案在更大的 GPU 上放得下：</translation>
    </message>
    <message>
        <source>%1 · tight fit</source>
        <translation>%1 · 余量紧张</translation>
    </message>
    <message>
        <source>Peak %1 per GPU, headroom %2: a tight fit, inside the estimate&apos;s likely range (up to %3), so a real run may not fit.</source>
        <translation>每张 GPU 峰值 %1，余量 %2：余量紧张，落在估算的可能范围内（最高 %3），实际运行可能放不下。</translation>
    </message>
    <message>
        <source>Over by %1. No change searched fits these GPUs (%2 candidates searched); the nearest fits on a larger one.</source>
        <translation>超出 %1。搜索过的改动在这些 GPU 上都放不下（搜索了 %2 个候选）；最接近的方案在更大的 GPU 上放得下。</translation>
    </message>
    <message>
        <source>Serving one request of %1 tokens, cheapest first (GiB of GPU memory rented)</source>
        <translation>服务 1 个 %1 token 的请求，最便宜的优先（按租用的 GPU 显存 GiB 计）</translation>
    </message>
    <message>
        <source>The peak is in the %1 phase, most of it held by the %2.</source>
        <translation>峰值出现在%1阶段，大部分由%2占用。</translation>
    </message>
    <message>
        <source>Fits, headroom %1. The RL knobs trade time or method for memory: nothing to change.</source>
        <translation>放得下，余量 %1。强化学习的各项调节以时间或方法换取显存：无需更改。</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::FitWording</name>
    <message>
        <source>recompute: none</source>
        <translation>重计算：无</translation>
    </message>
    <message>
        <source>recompute: selective</source>
        <translation>重计算：选择性</translation>
    </message>
    <message>
        <source>recompute: full</source>
        <translation>重计算：完全</translation>
    </message>
    <message>
        <source>recompute: %1 of %2 layers</source>
        <translation>重计算：%2 层中的 %1 层</translation>
    </message>
    <message>
        <source>paged 8-bit AdamW</source>
        <translation>分页 8-bit AdamW</translation>
    </message>
    <message>
        <source>optimizer: %1</source>
        <translation>优化器：%1</translation>
    </message>
    <message>
        <source>standard loss</source>
        <translation>标准损失</translation>
    </message>
    <message>
        <source>chunked loss</source>
        <translation>分块损失</translation>
    </message>
    <message>
        <source>fused linear loss</source>
        <translation>融合线性层损失</translation>
    </message>
    <message>
        <source>full fine-tune</source>
        <translation>全参数微调</translation>
    </message>
    <message>
        <source>micro-batch %1 ×%2 accum</source>
        <translation>微批次 %1 ×%2 累积</translation>
    </message>
    <message>
        <source>accumulation %1</source>
        <translation>梯度累积 %1</translation>
    </message>
    <message>
        <source>sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>no sequence parallel</source>
        <translation>关闭序列并行</translation>
    </message>
    <message>
        <source>PP %1 ×%2 virtual</source>
        <translation>PP %1 ×%2 虚拟阶段</translation>
    </message>
    <message>
        <source>optimizer + weights → %1</source>
        <translation>优化器 + 权重 → %1</translation>
    </message>
    <message>
        <source>optimizer → %1</source>
        <translation>优化器 → %1</translation>
    </message>
    <message>
        <source>weights → %1</source>
        <translation>权重 → %1</translation>
    </message>
    <message>
        <source>time unknown</source>
        <translation>时间未知</translation>
    </message>
    <message>
        <source>%1 time</source>
        <comment>1.3× time</comment>
        <translation>时间 %1</translation>
    </message>
    <message>
        <source>same model</source>
        <translation>同一模型</translation>
    </message>
    <message>
        <source>same training</source>
        <translation>同一训练</translation>
    </message>
    <message>
        <source>numerics</source>
        <translation>数值精度</translation>
    </message>
    <message>
        <source>method</source>
        <translation>训练方法</translation>
    </message>
    <message>
        <source>hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <source>The same model and weights, on other GPUs or split differently.</source>
        <translation>模型与权重不变，换用其他 GPU 或改变切分方式。</translation>
    </message>
    <message>
        <source>The same training, laid out or scheduled differently.</source>
        <translation>训练本身不变，只改变布局或调度。</translation>
    </message>
    <message>
        <source>Quantised weights or an fp8 KV cache: the answers can change slightly.</source>
        <translation>量化权重或 fp8 KV 缓存：输出结果可能略有变化。</translation>
    </message>
    <message>
        <source>The same method with other numerics (8-bit optimizer states).</source>
        <translation>方法不变，改用其他数值精度（8-bit 优化器状态）。</translation>
    </message>
    <message>
        <source>Another training method: the model learns differently.</source>
        <translation>换一种训练方法：模型的学习方式会不同。</translation>
    </message>
    <message>
        <source>More GPUs or another GPU.</source>
        <translation>更多 GPU 或换用其他 GPU。</translation>
    </message>
    <message>
        <source>Largest micro-batch: %1</source>
        <translation>最大微批次：%1</translation>
    </message>
    <message>
        <source>Largest micro-batch: nothing fits, not even %1</source>
        <translation>最大微批次：放不下，即使为 %1 也不行</translation>
    </message>
    <message>
        <source>Longest sequence: %1</source>
        <translation>最长序列：%1</translation>
    </message>
    <message>
        <source>Longest sequence: nothing fits, not even the shortest</source>
        <translation>最长序列：放不下，即使最短的也不行</translation>
    </message>
    <message>
        <source>Fewest GPUs: %1</source>
        <translation>最少 GPU 数：%1</translation>
    </message>
    <message>
        <source>Fewest GPUs: more do not help without ZeRO/FSDP</source>
        <translation>最少 GPU 数：不使用 ZeRO/FSDP 时，增加 GPU 无济于事</translation>
    </message>
    <message>
        <source>Fewest GPUs: nothing fits up to %1 GPUs</source>
        <translation>最少 GPU 数：直到 %1 张 GPU 仍放不下</translation>
    </message>
    <message>
        <source>%1 GiB GPU</source>
        <comment>a GPU of no preset: its capacity</comment>
        <translation>%1 GiB GPU</translation>
    </message>
    <message>
        <source>optimizer states: %1</source>
        <translation>优化器状态：%1</translation>
    </message>
    <message>
        <source>master weights: %1</source>
        <translation>主权重：%1</translation>
    </message>
    <message>
        <source>gradients: %1</source>
        <translation>梯度：%1</translation>
    </message>
    <message>
        <source>Fewest GPUs: more do not help without splitting the model (TP or PP)</source>
        <translation>最少 GPU 数：不切分模型（TP 或 PP）时，增加 GPU 无济于事</translation>
    </message>
    <message>
        <source>default</source>
        <comment>the framework&apos;s default engine share</comment>
        <translation>默认</translation>
    </message>
    <message>
        <source>engine share %1 → %2</source>
        <translation>引擎显存占比 %1 → %2</translation>
    </message>
    <message>
        <source>engine sleep level %1</source>
        <translation>引擎休眠级别 %1</translation>
    </message>
    <message>
        <source>reference → CPU</source>
        <translation>参考模型 → CPU</translation>
    </message>
    <message>
        <source>optimizer → CPU between phases</source>
        <translation>阶段间优化器 → CPU</translation>
    </message>
    <message>
        <source>weights → CPU between phases</source>
        <translation>阶段间权重 → CPU</translation>
    </message>
    <message>
        <source>log-prob batch %1 → %2</source>
        <translation>对数概率批次 %1 → %2</translation>
    </message>
    <message>
        <source>group %1 → %2</source>
        <translation>组大小 %1 → %2</translation>
    </message>
    <message>
        <source>responses %1 → %2 tokens</source>
        <translation>回答长度 %1 → %2 个 token</translation>
    </message>
    <message>
        <source>engine beside the trainer</source>
        <translation>引擎与训练同卡</translation>
    </message>
    <message>
        <source>engine on one GPU of its own</source>
        <translation>引擎独占 1 张 GPU</translation>
    </message>
    <message>
        <source>engine on %1 GPUs of its own</source>
        <translation>引擎独占 %1 张 GPU</translation>
    </message>
    <message>
        <source>fused cross-entropy kernel</source>
        <translation>融合交叉熵内核</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::GpuGroup</name>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Custom capacity</source>
        <translation>自定义容量</translation>
    </message>
    <message>
        <source>Type the usable memory below</source>
        <translation>在下方输入可用显存</translation>
    </message>
    <message>
        <source>Card</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>The GPU model; its usable memory is what the estimate must fit in</source>
        <translation>GPU 型号；估算结果必须放进其可用显存</translation>
    </message>
    <message>
        <source>Usable memory</source>
        <translation>可用显存</translation>
    </message>
    <message>
        <source>usable memory</source>
        <translation>可用显存</translation>
    </message>
    <message>
        <source>Memory a process can allocate on the card, in GiB (2^30 bytes) or GB (10^9), as View &gt; Sizes says</source>
        <translation>进程在该卡上可分配的显存，单位为 GiB（2^30 字节）或 GB（10^9 字节），取决于“视图”菜单中的单位设置</translation>
    </message>
    <message>
        <source>%1: %2 %3 usable</source>
        <translation>%1：可用 %2 %3</translation>
    </message>
    <message>
        <source>Choose &quot;Custom capacity&quot; to type a size</source>
        <translation>选择“自定义容量”后可输入大小</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::Guide</name>
    <message>
        <source>Where the memory goes</source>
        <translation>显存花在哪里</translation>
    </message>
    <message>
        <source>&lt;p&gt;One training step runs the model forward over a micro-batch, computes the loss, runs backward to get a gradient for every trainable weight, and lets the optimizer update the weights. Each of these needs tensors on the GPU, and vramplan counts them in seven components (an inference server adds an eighth, the KV cache):&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;Parameters&lt;/b&gt;, &lt;b&gt;gradients&lt;/b&gt; and &lt;b&gt;optimizer states&lt;/b&gt;: the &lt;i&gt;model states&lt;/i&gt;. They grow with the number of parameters and do not depend on the batch.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Activations&lt;/b&gt; and &lt;b&gt;logits and loss&lt;/b&gt;: what the forward pass keeps for backward. They grow with micro-batch &amp;times; sequence length, and do not depend on the optimizer.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Temporary&lt;/b&gt; buffers and &lt;b&gt;framework&lt;/b&gt; overhead: the working space of kernels, communication and the optimizer step, the CUDA context, and what the caching allocator keeps in reserve.&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;They are not all alive at once. Gradients appear during backward while activations are being freed; the optimizer step needs its own scratch space after the activations are gone. vramplan follows each item through the phases of a step (the timeline chart) and reports the &lt;b&gt;peak&lt;/b&gt;, the phase where the sum is largest: usually the start of backward, when every saved activation and the loss&apos;s gradient are held at the same time.&lt;/p&gt;</source>
        <translation>&lt;p&gt;一个训练步先对一个微批次做前向计算，算出损失，再反向传播为每个可训练权重求出梯度，最后由优化器更新权重。每一步都需要 GPU 上的张量，vramplan 把它们分为七个组成部分（推理服务再加上第八个：KV 缓存）：&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;参数&lt;/b&gt;、&lt;b&gt;梯度&lt;/b&gt;和&lt;b&gt;优化器状态&lt;/b&gt;：即&lt;i&gt;模型状态&lt;/i&gt;。它们随参数量增长，与批次无关。&lt;/li&gt;&lt;li&gt;&lt;b&gt;激活值&lt;/b&gt;和 &lt;b&gt;logits 与损失&lt;/b&gt;：前向为反向保存下来的内容。它们随微批次 &amp;times; 序列长度增长，与优化器无关。&lt;/li&gt;&lt;li&gt;&lt;b&gt;临时缓冲区&lt;/b&gt;和&lt;b&gt;框架开销&lt;/b&gt;：内核、通信和优化器步的工作空间、CUDA 上下文，以及缓存分配器预留的部分。&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;它们并非同时存活。梯度在反向传播中出现，同时激活值逐步释放；优化器步在激活值释放后还需要自己的临时空间。vramplan 跟踪每一项在训练步各阶段（时间线图）的存活情况，并报告&lt;b&gt;峰值&lt;/b&gt;，即总和最大的阶段：通常是反向开始时，此时所有保存的激活值和损失的梯度同时存在。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>&lt;p&gt;The weights are the model: every matrix of every layer, the token embedding, the norms and the output head. Forward multiplies the activations by them and backward needs them again for the gradients of the inputs, so they stay on the GPU for the whole step unless ZeRO-3/FSDP shards them or they are offloaded.&lt;/p&gt;&lt;p&gt;Bytes = elements &amp;times; bytes per element: 4 in fp32, 2 in bf16 or fp16, 1 in int8, about half a byte in 4-bit NF4. vramplan counts the elements tensor by tensor from the model&apos;s config, so grouped-query attention, tied embeddings, mixture-of-experts layers and vision towers count as they are; the count is shown under the Model group. Under mixed precision the fp32 copy the optimizer updates is counted with the optimizer states (master weights), as in the ZeRO paper.&lt;/p&gt;</source>
        <translation>&lt;p&gt;权重就是模型本身：每一层的每个矩阵、token 嵌入、归一化层和输出头。前向用它们乘以激活值，反向计算输入的梯度时还要再用一次，因此它们在整个训练步中都留在 GPU 上，除非被 ZeRO-3/FSDP 分片或被卸载。&lt;/p&gt;&lt;p&gt;字节数 = 元素数 &amp;times; 每元素字节数：fp32 为 4，bf16 或 fp16 为 2，int8 为 1，4-bit NF4 约为半个字节。vramplan 根据模型配置逐个张量统计元素数，因此分组查询注意力、共享嵌入、混合专家层和视觉塔都按实际情况计入；参数量显示在“模型”组下。混合精度下，优化器更新的 fp32 副本与 ZeRO 论文一样计入优化器状态（主权重）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>&lt;p&gt;Backward computes, for every trainable weight, how the loss changes with it: one gradient element per weight element. The optimizer needs all of them at once, so they live from the moment backward produces them until the optimizer step has used them (PyTorch frees them with &lt;tt&gt;zero_grad(set_to_none=True)&lt;/tt&gt;). With gradient accumulation they are kept across micro-batches and summed into.&lt;/p&gt;&lt;p&gt;A frozen weight has no gradient: under LoRA only the adapters get one. Their dtype follows the recipe: the weights&apos; 16-bit dtype in DeepSpeed and plain PyTorch mixed precision, fp32 under autocast (amp_*) and in Megatron&apos;s &lt;tt&gt;main_grad&lt;/tt&gt; buffer. Because they are made during backward, gradients may be absent from the peak when it falls at the start of backward; the &quot;How this is computed&quot; view shows such items in grey.&lt;/p&gt;</source>
        <translation>&lt;p&gt;反向传播为每个可训练权重计算损失随它的变化：每个权重元素对应一个梯度元素。优化器需要同时拿到全部梯度，因此梯度从反向传播产生它们起，一直存活到优化器步用完为止（PyTorch 用 &lt;tt&gt;zero_grad(set_to_none=True)&lt;/tt&gt; 释放它们）。使用梯度累积时，它们跨微批次保留并不断累加。&lt;/p&gt;&lt;p&gt;冻结的权重没有梯度：LoRA 下只有适配器有梯度。梯度的数据类型取决于训练配方：DeepSpeed 和普通 PyTorch 混合精度中与权重相同的 16 位类型，autocast（amp_*）下以及 Megatron 的 &lt;tt&gt;main_grad&lt;/tt&gt; 缓冲区中为 fp32。由于梯度在反向传播中才产生，当峰值落在反向开始时，峰值中可能没有梯度；“计算过程”视图中这类项显示为灰色。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>&lt;p&gt;Plain SGD needs nothing beyond the gradient. Adam and AdamW keep two running averages per weight: the first moment (the momentum) and the second moment (the squared gradient that scales each step), normally in fp32: 8 bytes per trainable parameter. SGD with momentum, Lion and Muon keep one; Adafactor keeps row and column statistics; bitsandbytes&apos; 8-bit optimizers store each moment in one byte plus a scale per block; paged optimizers keep their states in unified memory that the driver can move to the host.&lt;/p&gt;&lt;p&gt;Mixed precision adds the &lt;b&gt;master weights&lt;/b&gt;: the optimizer updates an fp32 copy of every trainable weight (a bf16 weight cannot take an update much smaller than itself; Micikevicius et al. 2018) and writes a 16-bit copy back for the next forward. That is how AdamW under bf16 mixed comes to 4 + 8 = 12 bytes per parameter of optimizer states, on top of 2 for the weights and 2 for the gradients.&lt;/p&gt;</source>
        <translation>&lt;p&gt;普通 SGD 除梯度外不需要别的。Adam 和 AdamW 为每个权重保存两个滑动平均：一阶矩（动量）和二阶矩（梯度的平方，用于缩放每一步），通常为 fp32：每个可训练参数 8 字节。带动量的 SGD、Lion 和 Muon 保存一个；Adafactor 保存行和列的统计量；bitsandbytes 的 8-bit 优化器把每个矩存为一个字节，外加每块一个缩放因子；分页优化器把状态放在统一内存中，驱动程序可以把它们移到主机。&lt;/p&gt;&lt;p&gt;混合精度还要加上&lt;b&gt;主权重&lt;/b&gt;：优化器更新每个可训练权重的 fp32 副本（bf16 权重无法承受比自身小得多的更新；Micikevicius 等，2018），再写回一份 16 位副本供下一次前向使用。这就是 bf16 混合精度下 AdamW 的优化器状态为每参数 4 + 8 = 12 字节的由来，此外权重 2 字节、梯度 2 字节。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>&lt;p&gt;To compute the gradients, backward needs the inputs of every operation of the forward pass: a linear layer&apos;s weight gradient is its input transposed times the gradient of its output. Autograd therefore keeps (&quot;saves&quot;) those tensors from forward until backward reaches the layer. They are the activations, and they are what grows when you raise the micro-batch or the sequence length: each saved tensor is b &amp;times; s &amp;times; (a hidden width) elements per layer.&lt;/p&gt;&lt;p&gt;vramplan lists them tensor by tensor for each layer kind (norm inputs, query, key and value, the attention output, the MLP&apos;s projections), in the dtype the kernels keep them, following Korthikanti et al. 2022 and the modelling code of each framework. Attention&apos;s s &amp;times; s scores are saved only by eager attention; FlashAttention and SDPA keep a small per-row statistic instead.&lt;/p&gt;</source>
        <translation>&lt;p&gt;为了计算梯度，反向传播需要前向中每个运算的输入：线性层的权重梯度等于其输入的转置乘以其输出的梯度。因此 autograd 把这些张量从前向一直保存到反向传播到达该层为止。它们就是激活值，也是增大微批次或序列长度时增长的部分：每个保存的张量每层有 b &amp;times; s &amp;times;（某个隐藏宽度）个元素。&lt;/p&gt;&lt;p&gt;vramplan 针对每种层逐个张量列出它们（归一化层的输入，query、key 和 value，注意力输出，MLP 的各个投影），按内核保存它们时的数据类型计算，依据 Korthikanti 等（2022）以及各框架的建模代码。只有 eager 注意力会保存 s &amp;times; s 的注意力分数；FlashAttention 和 SDPA 只保存每行一个很小的统计量。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Logits and loss</source>
        <translation>logits 与损失</translation>
    </message>
    <message>
        <source>&lt;p&gt;The output head turns every token&apos;s hidden state into a score for every word of the vocabulary: b &amp;times; s &amp;times; V logits. With a vocabulary of 128,000 and 8,000 tokens that is a billion numbers, often upcast to fp32 for the cross-entropy, and its gradient (the softmax minus the one-hot target) is as large again. For small models at long sequences this term can pass the whole model.&lt;/p&gt;&lt;p&gt;Chunked losses and fused linear-cross-entropy kernels (Liger, torchtune&apos;s chunked output, Apple&apos;s Cut Cross-Entropy) never hold all the logits at once; the scenario&apos;s loss setting chooses which the estimate follows.&lt;/p&gt;</source>
        <translation>&lt;p&gt;输出头把每个 token 的隐藏状态变成词表中每个词的分数：b &amp;times; s &amp;times; V 个 logits。词表为 128,000、8,000 个 token 时就是十亿个数，计算交叉熵时常被上转为 fp32，其梯度（softmax 减去 one-hot 目标）同样大。对于序列很长的小模型，这一项可能超过整个模型。&lt;/p&gt;&lt;p&gt;分块损失和融合的线性层-交叉熵内核（Liger、torchtune 的分块输出、Apple 的 Cut Cross-Entropy）从不同时保存全部 logits；场景中的损失设置决定估算采用哪一种。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Temporary buffers</source>
        <translation>临时缓冲区</translation>
    </message>
    <message>
        <source>&lt;p&gt;Working space that exists for part of a step: a layer&apos;s weights gathered from their shards under ZeRO-3/FSDP, the buckets DDP and DeepSpeed use to reduce gradients, the 16-bit copies of fp32 weights made for compute, the optimizer step&apos;s per-tensor scratch (PyTorch&apos;s foreach implementation works on a list of tensors at once), the recomputed forward of one layer. Each item says in which phases it lives; the largest of them often decides the peak after the activations are gone.&lt;/p&gt;</source>
        <translation>&lt;p&gt;只在训练步的一部分时间内存在的工作空间：ZeRO-3/FSDP 下从分片聚合出来的一层权重，DDP 和 DeepSpeed 用来归约梯度的桶，为计算而生成的 fp32 权重的 16 位副本，优化器步中每个张量的临时空间（PyTorch 的 foreach 实现一次处理一组张量），一层的重计算前向。每一项都标明它存活于哪些阶段；激活值释放之后，其中最大的一项往往决定峰值。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Framework overhead and the three measures</source>
        <translation>框架开销与三种度量</translation>
    </message>
    <message>
        <source>&lt;p&gt;Three numbers are reported, because three are measured:&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;allocated&lt;/b&gt;: the tensors themselves, &lt;tt&gt;torch.cuda.max_memory_allocated()&lt;/tt&gt;;&lt;/li&gt;&lt;li&gt;&lt;b&gt;reserved&lt;/b&gt;: what PyTorch&apos;s caching allocator holds from the driver, &lt;tt&gt;torch.cuda.max_memory_reserved()&lt;/tt&gt;. Freed blocks stay cached for reuse, so reserved exceeds allocated by the fragmentation of transient tensors;&lt;/li&gt;&lt;li&gt;&lt;b&gt;device&lt;/b&gt;: what &lt;tt&gt;nvidia-smi&lt;/tt&gt; shows and what must fit: reserved plus the CUDA context and kernel images (about 0.5 GiB on recent GPUs), NCCL&apos;s communication buffers in a multi-GPU job, and memory outside the allocator.&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;The framework component holds the difference between allocated and device. A run that reports 70 GiB allocated can fail on an 80 GB card.&lt;/p&gt;</source>
        <translation>&lt;p&gt;报告三个数字，因为实际测量的也是这三个：&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;已分配&lt;/b&gt;：张量本身，&lt;tt&gt;torch.cuda.max_memory_allocated()&lt;/tt&gt;；&lt;/li&gt;&lt;li&gt;&lt;b&gt;已保留&lt;/b&gt;：PyTorch 缓存分配器从驱动程序持有的显存，&lt;tt&gt;torch.cuda.max_memory_reserved()&lt;/tt&gt;。释放的块会被缓存以便复用，因此已保留比已分配多出临时张量造成的碎片；&lt;/li&gt;&lt;li&gt;&lt;b&gt;设备&lt;/b&gt;：&lt;tt&gt;nvidia-smi&lt;/tt&gt; 显示的、必须放得下的数字：已保留加上 CUDA 上下文和内核映像（较新的 GPU 上约 0.5 GiB）、多 GPU 任务中 NCCL 的通信缓冲区，以及分配器之外的显存。&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;框架开销这一组成部分就是已分配与设备之间的差额。报告 70 GiB 已分配的运行，可能在 80 GB 的显卡上失败。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Mixed precision</source>
        <translation>混合精度</translation>
    </message>
    <message>
        <source>&lt;p&gt;Tensor cores run bf16 and fp16 far faster than fp32, and 16-bit activations take half the memory; but small updates vanish in 16 bits. Mixed precision keeps both: compute and activations in 16 bits, the optimizer&apos;s copy of the weights and its moments in fp32.&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;bf16 mixed / fp16 mixed&lt;/b&gt; (16-bit weights with an fp32 master copy, as DeepSpeed and Megatron keep them): 2 (weights) + 2 (gradients) + 4 (master) + 8 (Adam) = 16 bytes per parameter; fp16 adds loss scaling, no memory.&lt;/li&gt;&lt;li&gt;&lt;b&gt;amp_bf16 / amp_fp16&lt;/b&gt; (&lt;tt&gt;torch.autocast&lt;/tt&gt; over fp32 weights, the HF Trainer&apos;s &lt;tt&gt;bf16=True&lt;/tt&gt; on an fp32 model): 4 + 4 + 8 = 16, no separate master; the 16-bit copies made for compute are temporaries.&lt;/li&gt;&lt;li&gt;&lt;b&gt;bf16&lt;/b&gt; (pure, no master): 2 + 2 + the optimizer&apos;s states in bf16; least memory, less accurate updates.&lt;/li&gt;&lt;li&gt;&lt;b&gt;fp8 mixed&lt;/b&gt; (Transformer Engine): fp8 compute and some fp8 activations, master weights as bf16 mixed.&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;So mixed precision does not save model-state memory against fp32 training; it saves activations and time.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Tensor Core 运行 bf16 和 fp16 远快于 fp32，16 位激活值也只占一半显存；但很小的更新在 16 位下会消失。混合精度两者兼顾：计算和激活值用 16 位，优化器的权重副本和矩用 fp32。&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;bf16 混合精度 / fp16 混合精度&lt;/b&gt;（16 位权重加一份 fp32 主权重，如 DeepSpeed 和 Megatron）：2（权重）+ 2（梯度）+ 4（主权重）+ 8（Adam）= 每参数 16 字节；fp16 多了损失缩放，但不占显存。&lt;/li&gt;&lt;li&gt;&lt;b&gt;amp_bf16 / amp_fp16&lt;/b&gt;（在 fp32 权重上使用 &lt;tt&gt;torch.autocast&lt;/tt&gt;，即 HF Trainer 对 fp32 模型使用 &lt;tt&gt;bf16=True&lt;/tt&gt;）：4 + 4 + 8 = 16，没有单独的主权重；为计算生成的 16 位副本属于临时缓冲区。&lt;/li&gt;&lt;li&gt;&lt;b&gt;bf16&lt;/b&gt;（纯 bf16，无主权重）：2 + 2 + bf16 的优化器状态；显存最少，更新精度较低。&lt;/li&gt;&lt;li&gt;&lt;b&gt;fp8 混合精度&lt;/b&gt;（Transformer Engine）：fp8 计算和部分 fp8 激活值，主权重同 bf16 混合精度。&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;所以与 fp32 训练相比，混合精度并不节省模型状态的显存；它节省的是激活值和时间。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>ZeRO and FSDP</source>
        <translation>ZeRO 与 FSDP</translation>
    </message>
    <message>
        <source>&lt;p&gt;Plain data parallelism (DDP) gives every GPU a full copy of the model states. ZeRO (Rajbhandari et al. 2020) shards them over the N data-parallel GPUs instead, in stages:&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;Stage 1&lt;/b&gt;: optimizer states (moments and master weights) / N;&lt;/li&gt;&lt;li&gt;&lt;b&gt;Stage 2&lt;/b&gt;: gradients / N as well (each GPU reduces only its shard);&lt;/li&gt;&lt;li&gt;&lt;b&gt;Stage 3&lt;/b&gt; (FSDP&apos;s FULL_SHARD): parameters / N as well; each layer is all-gathered just before its forward and backward and freed after, so one or two gathered layers appear as temporary buffers.&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;Activations are not sharded: each GPU still runs its own micro-batch. &lt;b&gt;Offload&lt;/b&gt; moves optimizer states (and with stage 3 the parameters) to CPU memory or NVMe, trading GPU memory for PCIe traffic at every step.&lt;/p&gt;</source>
        <translation>&lt;p&gt;普通数据并行（DDP）让每张 GPU 都保存一份完整的模型状态。ZeRO（Rajbhandari 等，2020）则把它们分片到 N 张数据并行 GPU 上，分为几个阶段：&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;阶段 1&lt;/b&gt;：优化器状态（矩和主权重）/ N；&lt;/li&gt;&lt;li&gt;&lt;b&gt;阶段 2&lt;/b&gt;：梯度也 / N（每张 GPU 只归约自己的分片）；&lt;/li&gt;&lt;li&gt;&lt;b&gt;阶段 3&lt;/b&gt;（FSDP 的 FULL_SHARD）：参数也 / N；每一层在其前向和反向之前才被 all-gather，用完即释放，因此临时缓冲区中会出现一到两层聚合后的权重。&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;激活值不分片：每张 GPU 仍然运行自己的微批次。&lt;b&gt;卸载&lt;/b&gt;把优化器状态（阶段 3 时还有参数）移到 CPU 内存或 NVMe，以每一步的 PCIe 传输换取 GPU 显存。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Activation recomputation</source>
        <translation>激活值重计算</translation>
    </message>
    <message>
        <source>&lt;p&gt;Also called gradient checkpointing. Instead of saving every activation of a layer, forward keeps only the layer&apos;s input and backward runs the layer&apos;s forward again when it gets there. &lt;b&gt;Full&lt;/b&gt; recomputation keeps b &amp;times; s &amp;times; h per layer plus one layer&apos;s activations at a time, for about a third more compute. &lt;b&gt;Selective&lt;/b&gt; recomputation (Korthikanti et al. 2022) recomputes only the cheap, large parts (attention&apos;s scores and softmax), which flash attention already avoids saving. Recomputation changes activations only; model states are untouched.&lt;/p&gt;</source>
        <translation>&lt;p&gt;也称梯度检查点。前向不再保存一层的所有激活值，只保存该层的输入，反向传播到达该层时再重新运行一次它的前向。&lt;b&gt;完全&lt;/b&gt;重计算每层保存 b &amp;times; s &amp;times; h，外加同一时间一层的激活值，代价是约多三分之一的计算量。&lt;b&gt;选择性&lt;/b&gt;重计算（Korthikanti 等，2022）只重算那些计算便宜但占用大的部分（注意力分数和 softmax），而 flash attention 本来就不保存它们。重计算只改变激活值；模型状态不受影响。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>LoRA and QLoRA</source>
        <translation>LoRA 与 QLoRA</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;LoRA&lt;/b&gt; (Hu et al. 2021) freezes the base model and trains two small matrices per adapted weight, of rank r: r &amp;times; (in + out) parameters instead of in &amp;times; out. The frozen base needs no gradients and no optimizer states, so the model states shrink to the base&apos;s weights (2 bytes per parameter in bf16) plus the adapters with their gradients and states. Activations remain: backward still passes through every frozen layer, so their inputs are still saved.&lt;/p&gt;&lt;p&gt;&lt;b&gt;QLoRA&lt;/b&gt; (Dettmers et al. 2023) stores the frozen linear weights in 4-bit NF4 with double-quantised scales (about 0.52 bytes per weight) and dequantises each to bf16 when it is used; norms and embeddings stay in 16 bits.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;LoRA&lt;/b&gt;（Hu 等，2021）冻结基座模型，为每个被适配的权重训练两个秩为 r 的小矩阵：参数量为 r &amp;times;（in + out），而不是 in &amp;times; out。冻结的基座不需要梯度和优化器状态，因此模型状态缩减为基座的权重（bf16 下每参数 2 字节）加上适配器及其梯度和状态。激活值仍然存在：反向传播仍要经过每一层冻结的层，所以它们的输入仍需保存。&lt;/p&gt;&lt;p&gt;&lt;b&gt;QLoRA&lt;/b&gt;（Dettmers 等，2023）把冻结的线性层权重存为 4-bit NF4，缩放因子再做双重量化（每个权重约 0.52 字节），每个权重在使用时反量化为 bf16；归一化层和嵌入保持 16 位。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Tensor, sequence, pipeline and other parallelism</source>
        <translation>张量并行、序列并行、流水线并行及其他并行</translation>
    </message>
    <message>
        <source>&lt;ul&gt;&lt;li&gt;&lt;b&gt;Tensor parallelism&lt;/b&gt; (TP, Megatron-LM) splits each layer&apos;s matrices over t GPUs: weights, gradients and states / t, and the activations inside attention and the MLP / t; the activations at the layer&apos;s boundaries stay whole on every GPU unless sequence parallelism is on.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Sequence parallelism&lt;/b&gt; (with TP) splits those boundary activations (norms, dropout) along the sequence: with it all activations are / t.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Pipeline parallelism&lt;/b&gt; (PP) gives each of p GPUs a contiguous stage of layers: model states / p; but the first stage holds the activations of up to p micro-batches in flight (1F1B schedule), and the last holds the output head and the loss. vramplan reports the stage with the larger peak.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Context parallelism&lt;/b&gt; splits the sequence of every layer over c GPUs (ring attention): activations / c.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Expert parallelism&lt;/b&gt; places a mixture-of-experts layer&apos;s experts on different GPUs: expert weights / e; routing imbalance makes some GPUs hold more tokens than the average.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Data parallelism&lt;/b&gt; is whatever is left of the GPUs: copies of the model that ZeRO/FSDP can shard.&lt;/li&gt;&lt;/ul&gt;</source>
        <translation>&lt;ul&gt;&lt;li&gt;&lt;b&gt;张量并行&lt;/b&gt;（TP，Megatron-LM）把每层的矩阵切分到 t 张 GPU 上：权重、梯度和状态 / t，注意力和 MLP 内部的激活值 / t；层边界处的激活值在每张 GPU 上仍是完整的，除非开启序列并行。&lt;/li&gt;&lt;li&gt;&lt;b&gt;序列并行&lt;/b&gt;（与 TP 配合）沿序列切分这些边界激活值（归一化、dropout）：开启后所有激活值都 / t。&lt;/li&gt;&lt;li&gt;&lt;b&gt;流水线并行&lt;/b&gt;（PP）让 p 张 GPU 各负责一段连续的层：模型状态 / p；但第一段要保存最多 p 个在途微批次的激活值（1F1B 调度），最后一段则持有输出头和损失。vramplan 报告峰值更大的那一段。&lt;/li&gt;&lt;li&gt;&lt;b&gt;上下文并行&lt;/b&gt;把每一层的序列切分到 c 张 GPU 上（ring attention）：激活值 / c。&lt;/li&gt;&lt;li&gt;&lt;b&gt;专家并行&lt;/b&gt;把混合专家层的专家放在不同的 GPU 上：专家权重 / e；路由不均衡会让某些 GPU 处理比平均更多的 token。&lt;/li&gt;&lt;li&gt;&lt;b&gt;数据并行&lt;/b&gt;是剩下的 GPU：模型的多个副本，可由 ZeRO/FSDP 分片。&lt;/li&gt;&lt;/ul&gt;</translation>
    </message>
    <message>
        <source>Serving: KV cache and gpu_memory_utilization</source>
        <translation>推理服务：KV 缓存与 gpu_memory_utilization</translation>
    </message>
    <message>
        <source>&lt;p&gt;Inference keeps no gradients or optimizer states: the weights, the activations of one forward pass, and the &lt;b&gt;KV cache&lt;/b&gt;. Each generated token attends to the keys and values of every token before it, so they are kept: 2 (K and V) &amp;times; layers &amp;times; KV heads &amp;times; head dimension &amp;times; bytes per element, for every token of every request in flight. Grouped-query attention, multi-head latent attention and an fp8 KV cache make it smaller.&lt;/p&gt;&lt;p&gt;vLLM and SGLang do not grow the cache as requests come: at start-up they take &lt;b&gt;gpu_memory_utilization&lt;/b&gt; &amp;times; the GPU&apos;s memory (0.9 by default), subtract the weights, the activation peak they profile and their other buffers, and turn the rest into KV-cache blocks. The breakdown draws that budget line; the engine refuses to start when the cache cannot hold one request of &lt;b&gt;max_model_len&lt;/b&gt; tokens. How many requests run at once is the cache&apos;s tokens / tokens per request, capped by &lt;b&gt;max_num_seqs&lt;/b&gt;. Choose inference as the mode and an engine in the Serving group to plan a server.&lt;/p&gt;</source>
        <translation>&lt;p&gt;推理不需要梯度和优化器状态：只有权重、一次前向的激活值和 &lt;b&gt;KV 缓存&lt;/b&gt;。每个生成的 token 都要关注它之前所有 token 的 key 和 value，因此要把它们保存下来：2（K 和 V）&amp;times; 层数 &amp;times; KV 头数 &amp;times; 头维度 &amp;times; 每元素字节数，对每个在途请求的每个 token 都是如此。分组查询注意力、多头潜在注意力和 fp8 KV 缓存都能使它变小。&lt;/p&gt;&lt;p&gt;vLLM 和 SGLang 不会随请求到来而扩大缓存：启动时它们取 &lt;b&gt;gpu_memory_utilization&lt;/b&gt; &amp;times; GPU 显存（默认 0.9），减去权重、它们测得的激活峰值和其他缓冲区，把剩下的全部变成 KV 缓存块。显存构成图会画出这条预算线；当缓存连一个 &lt;b&gt;max_model_len&lt;/b&gt; 个 token 的请求都放不下时，引擎拒绝启动。能同时运行多少个请求，等于缓存的 token 数 / 每个请求的 token 数，上限为 &lt;b&gt;max_num_seqs&lt;/b&gt;。把模式选为推理，并在“推理服务”组中选择引擎，即可规划一个推理服务。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Using the window</source>
        <translation>使用窗口</translation>
    </message>
    <message>
        <source>&lt;ul&gt;&lt;li&gt;&lt;b&gt;Controls&lt;/b&gt; (left): the model (a preset, or File &amp;gt; Import Hugging Face config.json), batch and sequence, precision and optimizer, memory savers, parallelism, the GPU.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Breakdown&lt;/b&gt;: memory per GPU at the peak against the GPU&apos;s capacity; hover a segment for its largest items and their formulas.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Help &amp;gt; How This Is Computed&lt;/b&gt; (Ctrl+I): every item of the current estimate with its formula, this run&apos;s numbers and its source, grouped by component; it follows every change.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Make it fit&lt;/b&gt;: changes that would make the run fit, best first; hover one to preview it, click to apply it (Ctrl+Z undoes it).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Curves and timeline&lt;/b&gt;: memory against micro-batch, sequence length and GPU count, and through the phases of one training step.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Compare&lt;/b&gt;: scenarios side by side (Ctrl+D adds the current one).&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;How each term is computed and how close the estimates come to measured runs: docs/accuracy.md, docs/models.md, docs/serving.md and docs/training_stacks.md in vramplan&apos;s sources.&lt;/p&gt;</source>
        <translation>&lt;ul&gt;&lt;li&gt;&lt;b&gt;控制面板&lt;/b&gt;（左侧）：模型（预设，或通过“文件 &amp;gt; 导入 Hugging Face config.json”）、批次与序列、精度与优化器、显存节省手段、并行方式、GPU。&lt;/li&gt;&lt;li&gt;&lt;b&gt;显存构成&lt;/b&gt;：峰值时每张 GPU 的显存与 GPU 容量的对比；将鼠标悬停在某一段上，可查看其中最大的几项及其公式。&lt;/li&gt;&lt;li&gt;&lt;b&gt;帮助 &amp;gt; 计算过程&lt;/b&gt;（Ctrl+I）：当前估算的每一项，附公式、本次运行的数值和出处，按组成部分分组；它随每次改动更新。&lt;/li&gt;&lt;li&gt;&lt;b&gt;显存适配建议&lt;/b&gt;：能让这次运行放得下的改动，最优的排在前面；悬停可预览，单击即应用（Ctrl+Z 撤销）。&lt;/li&gt;&lt;li&gt;&lt;b&gt;曲线与时间线&lt;/b&gt;：显存随微批次、序列长度和 GPU 数量的变化，以及在一个训练步各阶段中的变化。&lt;/li&gt;&lt;li&gt;&lt;b&gt;对比&lt;/b&gt;：并排比较多个场景（Ctrl+D 添加当前场景）。&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;每一项如何计算、估算与实测有多接近：见 vramplan 源码中的 docs/accuracy.md、docs/models.md、docs/serving.md 和 docs/training_stacks.md。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;File &amp;gt; Open Measured Run...&lt;/b&gt; reads what a real run recorded (a PyTorch memory snapshot, the JSON of &lt;tt&gt;MemTracker&lt;/tt&gt; or of &lt;tt&gt;torch.cuda.memory_stats()&lt;/tt&gt;, an nvidia-smi log; several files of one run together) and shows it beside the plan: the measured peaks and components against the estimate with each difference in words, the rule that placed each component, and the measured timeline over the planned step. A figure the files cannot give reads &quot;not recorded&quot;. &lt;b&gt;Calibrate from This Run&lt;/b&gt; fits the scenario to the measured peak, as Edit &amp;gt; Calibrate from My Run does with a number you type.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;文件 &amp;gt; 打开实测运行...&lt;/b&gt; 读取真实运行记录的数据（PyTorch 显存快照、&lt;tt&gt;MemTracker&lt;/tt&gt; 或 &lt;tt&gt;torch.cuda.memory_stats()&lt;/tt&gt; 的 JSON、nvidia-smi 日志；同一次运行的多个文件可一起打开），并与计划并排显示：实测的峰值和各组成部分与估算的对比，每项差异用文字说明，每个组成部分由哪条规则归类，以及叠加在计划训练步上的实测时间线。文件无法给出的数值显示为“未记录”。&lt;b&gt;按此次运行校准&lt;/b&gt; 会将场景拟合到实测峰值，与“编辑 &amp;gt; 按我的实测校准”对手动输入的数值所做的相同。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::GuideWindow</name>
    <message>
        <source>vramplan Guide</source>
        <translation>vramplan 指南</translation>
    </message>
    <message>
        <source>Worked example: a 7B model&apos;s bytes per parameter</source>
        <translation>示例：7B 模型每参数的字节数</translation>
    </message>
    <message>
        <source>GPU memory in training and serving</source>
        <translation>训练与推理服务中的 GPU 显存</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::HowComputedWindow</name>
    <message>
        <source>How This Is Computed</source>
        <translation>计算过程</translation>
    </message>
    <message>
        <source>Scenario: %1</source>
        <translation>场景：%1</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::InputGuard</name>
    <message>
        <source>a number from %1 to %2</source>
        <translation>%1 到 %2 之间的数</translation>
    </message>
    <message>
        <source>a whole number from %1 to %2</source>
        <translation>%1 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>%1 takes %2: &quot;%3&quot; left out</source>
        <translation>%1 只接受%2：已略去“%3”</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::MainWindow</name>
    <message>
        <source>vramplan</source>
        <translation>vramplan</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>规划</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>对比(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>&amp;Find Model Preset</source>
        <translation>查找模型预设(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Calibrate from My Run...</source>
        <translation>按我的实测校准(&amp;C)...</translation>
    </message>
    <message>
        <source>Ctrl+K</source>
        <translation>Ctrl+K</translation>
    </message>
    <message>
        <source>Clear Calibration</source>
        <translation>清除校准</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Sizes in &amp;GiB (2^30 bytes)</source>
        <translation>以 &amp;GiB 为单位（2^30 字节）</translation>
    </message>
    <message>
        <source>Sizes in G&amp;B (10^9 bytes)</source>
        <translation>以 G&amp;B 为单位（10^9 字节）</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System Default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>The language changes when vramplan next starts.</source>
        <translation>界面语言将在 vramplan 下次启动时更改。</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Calibrate from my run</source>
        <translation>按我的实测校准</translation>
    </message>
    <message>
        <source>Clear calibration</source>
        <translation>清除校准</translation>
    </message>
    <message>
        <source>%1[*] - vramplan</source>
        <comment>the window title: the scenario&apos;s name</comment>
        <translation>%1[*] - vramplan</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::MeasuredRunActions</name>
    <message>
        <source>Reading the measured run was cancelled.</source>
        <translation>已取消读取实测运行。</translation>
    </message>
    <message>
        <source>Open &amp;Measured Run...</source>
        <translation>打开实测运行(&amp;M)...</translation>
    </message>
    <message>
        <source>Read what a real run recorded (a torch memory snapshot, the JSON of torch&apos;s mem_tracker or of torch.cuda.memory_stats(), an nvidia-smi log) and lay it beside the plan</source>
        <translation>读取真实运行记录的数据（torch 显存快照、torch 的 mem_tracker 或 torch.cuda.memory_stats() 的 JSON、nvidia-smi 日志），并与计划并排显示</translation>
    </message>
    <message>
        <source>Open Measured Run</source>
        <translation>打开实测运行</translation>
    </message>
    <message>
        <source>Measured runs (*.pickle *.pkl *.json *.csv);;All files (*)</source>
        <translation>实测运行 (*.pickle *.pkl *.json *.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Reading %1...</source>
        <translation>正在读取 %1...</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message numerus="yes">
        <source>Measured run read: %n file(s) beside the plan.</source>
        <translation>
            <numerusform>已读取实测运行：%n 个文件，已与计划并排显示。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot Open Measured Run</source>
        <translation>无法打开实测运行</translation>
    </message>
    <message>
        <source>Cannot calibrate to this run: %1.</source>
        <translation>无法按此次运行校准：%1。</translation>
    </message>
    <message>
        <source>Cannot Calibrate</source>
        <translation>无法校准</translation>
    </message>
    <message>
        <source>Calibrated to the measured run&apos;s peak, %1.</source>
        <translation>已按实测运行的峰值 %1 校准。</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::MeasuredRunWindow</name>
    <message>
        <source>&amp;Calibrate from This Run</source>
        <translation>按此次运行校准(&amp;C)</translation>
    </message>
    <message>
        <source>What</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Planned</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>From (rule or file)</source>
        <translation>来源（规则或文件）</translation>
    </message>
    <message>
        <source>Fit the scenario&apos;s overhead terms (and, where they cannot explain the difference, its activations) to the measured peak, as Edit &gt; Calibrate from My Run does; Ctrl+Z undoes it</source>
        <translation>将场景的开销项（以及在开销项无法解释差异时的激活值）拟合到实测峰值，与“编辑 &gt; 按我的实测校准”相同；Ctrl+Z 可撤销</translation>
    </message>
    <message>
        <source>Measured Run: %1</source>
        <translation>实测运行：%1</translation>
    </message>
    <message>
        <source>Files (device %1): %2</source>
        <translation>文件（设备 %1）：%2</translation>
    </message>
    <message>
        <source>Against the plan: %1</source>
        <translation>对照计划：%1</translation>
    </message>
    <message>
        <source>These files give no peak to calibrate to.</source>
        <translation>这些文件没有可用于校准的峰值。</translation>
    </message>
    <message>
        <source>Calibrating fits the scenario to the measured reserved peak, %1.</source>
        <translation>校准会将场景拟合到实测的已保留峰值 %1。</translation>
    </message>
    <message>
        <source>Calibrating fits the scenario to the measured device peak, %1.</source>
        <translation>校准会将场景拟合到实测的设备峰值 %1。</translation>
    </message>
    <message>
        <source>Calibrating fits the scenario to the measured allocated peak, %1.</source>
        <translation>校准会将场景拟合到实测的已分配峰值 %1。</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ModelGroup</name>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>model preset</source>
        <translation>模型预设</translation>
    </message>
    <message>
        <source> B</source>
        <translation> B</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>规模</translation>
    </message>
    <message>
        <source>model size</source>
        <translation>模型规模</translation>
    </message>
    <message>
        <source>Scales the chosen family&apos;s depth and width to a parameter count, in billions; ticks mark the preset sizes</source>
        <translation>按参数量（单位：十亿，B）缩放所选模型系列的深度和宽度；刻度标出各预设的规模</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>Tied embeddings</source>
        <translation>输入输出嵌入共享权重</translation>
    </message>
    <message>
        <source>Read from the model&apos;s config: what shapes its attention and layers beyond the fields above</source>
        <translation>读自模型配置：除上述字段外决定其注意力和各层形状的信息</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Transformer blocks (num_hidden_layers)</source>
        <translation>Transformer 块数（num_hidden_layers）</translation>
    </message>
    <message>
        <source>Hidden size</source>
        <translation>隐藏层维度</translation>
    </message>
    <message>
        <source>hidden size</source>
        <translation>隐藏层维度</translation>
    </message>
    <message>
        <source>Width of the residual stream (hidden_size)</source>
        <translation>残差流的宽度（hidden_size）</translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>Query heads per layer (num_attention_heads)</source>
        <translation>每层的查询头数（num_attention_heads）</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <source>Key/value heads (num_key_value_heads): fewer than the attention heads is grouped-query attention; they must divide the attention heads</source>
        <translation>键/值头数（num_key_value_heads）：少于注意力头数即为分组查询注意力（GQA）；必须能整除注意力头数</translation>
    </message>
    <message>
        <source>FFN size</source>
        <translation>FFN 维度</translation>
    </message>
    <message>
        <source>Width of the MLP (intermediate_size)</source>
        <translation>MLP 的宽度（intermediate_size）</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>vocabulary</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>Tokens in the vocabulary: the embedding, the output layer and the logits scale with it</source>
        <translation>词表中的 token 数：嵌入层、输出层和 logits 随之增长</translation>
    </message>
    <message>
        <source>tied embeddings</source>
        <translation>共享嵌入权重</translation>
    </message>
    <message>
        <source>The output layer reuses the input embedding&apos;s weights</source>
        <translation>输出层复用输入嵌入层的权重</translation>
    </message>
    <message>
        <source>MoE experts</source>
        <translation>MoE 专家数</translation>
    </message>
    <message>
        <source>Routed experts per MoE layer; 0 for a dense model</source>
        <translation>每个 MoE 层的路由专家数；稠密模型为 0</translation>
    </message>
    <message>
        <source>Experts per token</source>
        <translation>每 token 专家数</translation>
    </message>
    <message>
        <source>experts per token</source>
        <translation>每 token 专家数</translation>
    </message>
    <message>
        <source>Experts each token is routed to (top-k)</source>
        <translation>每个 token 被路由到的专家数（top-k）</translation>
    </message>
    <message>
        <source>Shared experts</source>
        <translation>共享专家数</translation>
    </message>
    <message>
        <source>shared experts</source>
        <translation>共享专家数</translation>
    </message>
    <message>
        <source>Experts every token passes through besides the routed ones</source>
        <translation>除路由专家外每个 token 都会经过的专家数</translation>
    </message>
    <message>
        <source>Dense first layers</source>
        <translation>前置稠密层数</translation>
    </message>
    <message>
        <source>dense first layers</source>
        <translation>前置稠密层数</translation>
    </message>
    <message>
        <source>Layers at the bottom with a dense MLP instead of experts (DeepSeek&apos;s first_k_dense_replace)</source>
        <translation>底部使用稠密 MLP 而非专家的层数（DeepSeek 的 first_k_dense_replace）</translation>
    </message>
    <message>
        <source>Expert load imbalance</source>
        <translation>专家负载不均衡度</translation>
    </message>
    <message>
        <source>expert load imbalance</source>
        <translation>专家负载不均衡度</translation>
    </message>
    <message>
        <source>The busiest expert&apos;s (or expert-parallel rank&apos;s) tokens over the balanced share (1.0: balanced). It scales what the routed experts keep under expert parallelism and grouped-GEMM engines.</source>
        <translation>最忙的专家（或专家并行 rank）处理的 token 数与均衡份额之比（1.0 表示均衡）。它会放大专家并行和分组 GEMM 引擎下路由专家保存的内容。</translation>
    </message>
    <message>
        <source>A dense model has no experts</source>
        <translation>稠密模型没有专家</translation>
    </message>
    <message>
        <source>Applies under expert parallelism (EP &gt; 1): with one rank every routed token stays on this GPU, balanced or not</source>
        <translation>仅在专家并行（EP &gt; 1）下生效：只有一个 rank 时，无论是否均衡，所有被路由的 token 都留在这张 GPU 上</translation>
    </message>
    <message>
        <source>Expert FFN size</source>
        <translation>专家 FFN 维度</translation>
    </message>
    <message>
        <source>Each routed expert&apos;s width; the dense layers&apos; is %1</source>
        <translation>每个路由专家的宽度；稠密层的宽度为 %1</translation>
    </message>
    <message>
        <source>Each routed expert&apos;s width (moe_intermediate_size)</source>
        <translation>每个路由专家的宽度（moe_intermediate_size）</translation>
    </message>
    <message>
        <source>head width</source>
        <translation>注意力头维度</translation>
    </message>
    <message>
        <source>expert FFN size</source>
        <translation>专家 FFN 宽度</translation>
    </message>
    <message>
        <source>scaled the architecture: %1 (Edit &gt; Undo puts it back in one step)</source>
        <translation>已缩放模型结构：%1（编辑 &gt; 撤销可一步恢复）</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::NameGroup</name>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>The name in the title, in comparisons and on exported charts. Left empty it is made from the settings and follows them.</source>
        <translation>显示在标题、对比和导出图表中的名称。留空时根据设置自动生成，并随设置变化。</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ParallelGroup</name>
    <message>
        <source>Parallelism</source>
        <translation>并行</translation>
    </message>
    <message>
        <source>Sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>GPU count</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>GPUs in the run; what the model-parallel sizes leave over is data parallelism</source>
        <translation>本次运行的 GPU 总数；模型并行规模之外的部分即为数据并行</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>tensor parallelism</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>GPUs each layer&apos;s matrices are split over (Megatron TP): weights and most activations divide by it</source>
        <translation>每层矩阵切分到的 GPU 数（Megatron TP）：权重和大部分激活值按此均分</translation>
    </message>
    <message>
        <source>sequence parallelism</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>Splits the norms&apos; and dropouts&apos; activations over the tensor-parallel group too</source>
        <translation>将归一化层和 dropout 的激活值也切分到张量并行组上</translation>
    </message>
    <message>
        <source>Pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <source>pipeline parallelism</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <source>Stages the layers are split into; the first holds the most micro-batches in flight (1F1B)</source>
        <translation>各层被切分成的阶段数；第一个阶段同时在途的微批次最多（1F1B）</translation>
    </message>
    <message>
        <source>Virtual stages</source>
        <translation>虚拟阶段</translation>
    </message>
    <message>
        <source>virtual stages</source>
        <translation>虚拟阶段</translation>
    </message>
    <message>
        <source>Interleaved pipeline: chunks of layers per stage</source>
        <translation>交错式流水线：每个阶段包含的层块数</translation>
    </message>
    <message>
        <source>Context parallel</source>
        <translation>上下文并行</translation>
    </message>
    <message>
        <source>context parallelism</source>
        <translation>上下文并行</translation>
    </message>
    <message>
        <source>GPUs each sequence is split over (ring attention)</source>
        <translation>每个序列切分到的 GPU 数（环形注意力）</translation>
    </message>
    <message>
        <source>Expert parallel</source>
        <translation>专家并行</translation>
    </message>
    <message>
        <source>expert parallelism</source>
        <translation>专家并行</translation>
    </message>
    <message>
        <source>GPUs a MoE layer&apos;s experts are spread over</source>
        <translation>MoE 层的专家分布到的 GPU 数</translation>
    </message>
    <message>
        <source>Sequence parallelism splits the tensor-parallel group: needs TP &gt; 1</source>
        <translation>序列并行在张量并行组内切分：需要 TP &gt; 1</translation>
    </message>
    <message>
        <source>Virtual stages interleave a pipeline: needs PP &gt; 1</source>
        <translation>虚拟阶段用于交错流水线：需要 PP &gt; 1</translation>
    </message>
    <message>
        <source>Expert parallelism needs a mixture-of-experts model</source>
        <translation>专家并行需要混合专家（MoE）模型</translation>
    </message>
    <message>
        <source>%1 does not divide the %2 attention heads</source>
        <translation>%1 不能整除 %2 个注意力头</translation>
    </message>
    <message>
        <source>%1 and the %2 key/value heads do not divide one another</source>
        <translation>%1 与 %2 个键/值头互不整除</translation>
    </message>
    <message>
        <source>more than the %1 GPUs</source>
        <translation>超过 GPU 总数 %1</translation>
    </message>
    <message>
        <source>Split each layer over %1 GPUs</source>
        <translation>将每层切分到 %1 张 GPU 上</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::PlanController</name>
    <message>
        <source>Memory vs micro-batch</source>
        <translation>显存随微批次的变化</translation>
    </message>
    <message>
        <source>Micro-batch size</source>
        <translation>微批次大小</translation>
    </message>
    <message>
        <source>micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>Memory vs sequence length</source>
        <translation>显存随序列长度的变化</translation>
    </message>
    <message>
        <source>Sequence length (tokens)</source>
        <translation>序列长度（token）</translation>
    </message>
    <message>
        <source>sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Memory vs GPU count</source>
        <translation>显存随 GPU 数量的变化</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>GPU count</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>fewest that fit</source>
        <translation>放得下的最少值</translation>
    </message>
    <message>
        <source>Memory vs response length</source>
        <translation>显存与回答长度</translation>
    </message>
    <message>
        <source>Response tokens</source>
        <translation>回答词元数</translation>
    </message>
    <message>
        <source>response tokens</source>
        <translation>回答词元数</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::PresetPicker</name>
    <message>
        <source>Type to search the presets</source>
        <translation>输入以搜索预设</translation>
    </message>
    <message>
        <source>Type part of a name (qwen3, deepseek, 70b, moe; Ctrl+F from anywhere) to list the presets that match; Down and Enter pick one, Enter alone takes the first, Esc goes back</source>
        <translation>输入名称的一部分（qwen3、deepseek、70b、moe；任意位置按 Ctrl+F）列出匹配的预设；用 ↓ 和 Enter 选择，直接按 Enter 选第一个，Esc 返回</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>%1 (imported)</source>
        <translation>%1（已导入）</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::RlGroup</name>
    <message>
        <source>Post-training (RL)</source>
        <translation>后训练（强化学习）</translation>
    </message>
    <message>
        <source>plan phase by phase</source>
        <translation>逐阶段规划</translation>
    </message>
    <message>
        <source>Reference model</source>
        <translation>参考模型</translation>
    </message>
    <message>
        <source>Reward model</source>
        <translation>奖励模型</translation>
    </message>
    <message>
        <source>Critic</source>
        <translation>价值模型</translation>
    </message>
    <message>
        <source>policy parameters</source>
        <translation>策略模型参数</translation>
    </message>
    <message>
        <source>policy optimizer</source>
        <translation>策略模型优化器</translation>
    </message>
    <message>
        <source>reference model</source>
        <translation>参考模型</translation>
    </message>
    <message>
        <source>GRPO: a group of responses per prompt, the group&apos;s mean as the baseline; no critic</source>
        <translation>GRPO：每个提示生成一组回答，以组内均值为基线；无价值模型</translation>
    </message>
    <message>
        <source>PPO: a critic (value model) gives the baseline</source>
        <translation>PPO：由价值模型给出基线</translation>
    </message>
    <message>
        <source>DPO: preference pairs from the data set, no generation</source>
        <translation>DPO：偏好对来自数据集，不生成</translation>
    </message>
    <message>
        <source>ORPO: preference pairs, no reference model</source>
        <translation>ORPO：偏好对，无参考模型</translation>
    </message>
    <message>
        <source>KTO: desirable and undesirable examples, no generation</source>
        <translation>KTO：期望与不期望的样本，不生成</translation>
    </message>
    <message>
        <source>RLOO: leave-one-out baseline within the group</source>
        <translation>RLOO：组内留一基线</translation>
    </message>
    <message>
        <source>REINFORCE++: a global baseline, no critic</source>
        <translation>REINFORCE++：全局基线，无价值模型</translation>
    </message>
    <message>
        <source>verl: FSDP actor, vLLM or SGLang rollout that sleeps between phases</source>
        <translation>verl：FSDP 执行器，vLLM 或 SGLang 推演，阶段之间休眠</translation>
    </message>
    <message>
        <source>TRL: the trainers of Hugging Face (GRPOTrainer, DPOTrainer)</source>
        <translation>TRL：Hugging Face 的训练器</translation>
    </message>
    <message>
        <source>OpenRLHF: planned with verl&apos;s rules</source>
        <translation>OpenRLHF：按 verl 的规则规划</translation>
    </message>
    <message>
        <source>ms-swift: planned with TRL&apos;s rules (built on GRPOTrainer)</source>
        <translation>ms-swift：按 TRL 的规则规划（基于 TRL 的 GRPO 训练器）</translation>
    </message>
    <message>
        <source>vLLM generates the rollouts</source>
        <translation>由 vLLM 生成推演</translation>
    </message>
    <message>
        <source>SGLang generates the rollouts (planned as vLLM)</source>
        <translation>由 SGLang 生成推演（按 vLLM 规划）</translation>
    </message>
    <message>
        <source>generate() in the training process, with the policy&apos;s own weights</source>
        <translation>在训练进程中调用 generate()，使用策略模型自身的权重</translation>
    </message>
    <message>
        <source>The engine shares the training GPUs and sleeps between phases</source>
        <translation>引擎与训练共用显卡，阶段之间休眠</translation>
    </message>
    <message>
        <source>The engine has GPUs of its own: the training GPUs hold none of it</source>
        <translation>引擎使用自己的显卡：训练显卡上没有它的任何部分</translation>
    </message>
    <message>
        <source>framework default</source>
        <translation>框架默认值</translation>
    </message>
    <message>
        <source>The framework&apos;s own: verl sleeps at level 1, TRL and the others not at all</source>
        <translation>框架自身的默认值：verl 为级别 1，TRL 及其他框架不休眠</translation>
    </message>
    <message>
        <source>0: stays awake</source>
        <translation>0：保持唤醒</translation>
    </message>
    <message>
        <source>The engine keeps its weights and KV cache through the experience and training phases</source>
        <translation>引擎在经验和训练阶段保留其权重和 KV 缓存</translation>
    </message>
    <message>
        <source>1: weights to CPU</source>
        <translation>1：权重移至内存</translation>
    </message>
    <message>
        <source>Sleep frees the engine&apos;s weights (copied to pinned CPU memory) and its KV cache between generations</source>
        <translation>休眠在两次生成之间释放引擎的权重（复制到锁页内存）及其 KV 缓存</translation>
    </message>
    <message>
        <source>2: weights discarded</source>
        <translation>2：丢弃权重</translation>
    </message>
    <message>
        <source>Sleep discards the engine&apos;s weights and frees its KV cache; the weights are sent again before each generation</source>
        <translation>休眠丢弃引擎的权重并释放其 KV 缓存；每次生成前重新发送权重</translation>
    </message>
    <message>
        <source>micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>Rollout engine</source>
        <translation>推演引擎</translation>
    </message>
    <message>
        <source>RL</source>
        <translation>强化学习</translation>
    </message>
    <message>
        <source>Plan post-training with a rollout engine phase by phase: generation, experience, training</source>
        <translation>逐阶段规划带推演引擎的后训练：生成、经验、训练</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <source>RL algorithm</source>
        <translation>强化学习算法</translation>
    </message>
    <message>
        <source>What the step computes; each choice&apos;s tooltip says what it keeps</source>
        <translation>每一步计算的内容；各选项的提示说明它保留什么</translation>
    </message>
    <message>
        <source>RL framework</source>
        <translation>强化学习框架</translation>
    </message>
    <message>
        <source>Whose defaults and code paths are planned</source>
        <translation>按哪个框架的默认值和代码路径规划</translation>
    </message>
    <message>
        <source>Its release</source>
        <translation>其版本</translation>
    </message>
    <message>
        <source>RL framework release</source>
        <translation>强化学习框架版本</translation>
    </message>
    <message>
        <source>The framework&apos;s release, such as 0.5 (empty: the release planned by default)</source>
        <translation>框架的版本，如 0.5（留空：默认规划的版本）</translation>
    </message>
    <message>
        <source>A frozen copy of the policy for the KL term (off: beta 0)</source>
        <translation>用于 KL 项的策略模型冻结副本（关闭：KL 系数为 0）</translation>
    </message>
    <message>
        <source>reward model</source>
        <translation>奖励模型</translation>
    </message>
    <message>
        <source>A reward model of the policy&apos;s architecture beside it (off: a rule-based reward)</source>
        <translation>旁边一个与策略模型同架构的奖励模型（关闭：基于规则的奖励）</translation>
    </message>
    <message>
        <source>critic</source>
        <translation>价值模型</translation>
    </message>
    <message>
        <source>A value model trained beside the policy (PPO)</source>
        <translation>与策略模型一同训练的价值模型（PPO）</translation>
    </message>
    <message>
        <source>Group size</source>
        <translation>组大小</translation>
    </message>
    <message>
        <source>group size</source>
        <translation>组大小</translation>
    </message>
    <message>
        <source>Responses generated per prompt</source>
        <translation>每个提示生成的回答数</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>提示词元数</translation>
    </message>
    <message>
        <source>prompt tokens</source>
        <translation>提示词元数</translation>
    </message>
    <message>
        <source>The longest prompt; the sequence is prompt + response</source>
        <translation>最长的提示；序列为提示加回答</translation>
    </message>
    <message>
        <source>Response tokens</source>
        <translation>回答词元数</translation>
    </message>
    <message>
        <source>response tokens</source>
        <translation>回答词元数</translation>
    </message>
    <message>
        <source>The longest response generated</source>
        <translation>生成的最长回答</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>rollout engine</source>
        <translation>推演引擎</translation>
    </message>
    <message>
        <source>What generates the rollouts</source>
        <translation>由什么生成推演</translation>
    </message>
    <message>
        <source>Placement</source>
        <translation>放置方式</translation>
    </message>
    <message>
        <source>placement</source>
        <translation>放置方式</translation>
    </message>
    <message>
        <source>Whether the engine shares the training GPUs</source>
        <translation>引擎是否与训练共用显卡</translation>
    </message>
    <message>
        <source>Engine GPUs</source>
        <translation>引擎显卡数</translation>
    </message>
    <message>
        <source>engine GPUs</source>
        <translation>引擎显卡数</translation>
    </message>
    <message>
        <source>The engine&apos;s own GPUs (separate placement)</source>
        <translation>引擎自己的显卡（分离放置）</translation>
    </message>
    <message>
        <source>Engine TP</source>
        <translation>引擎张量并行</translation>
    </message>
    <message>
        <source>engine tensor parallelism</source>
        <translation>引擎张量并行</translation>
    </message>
    <message>
        <source>The engine&apos;s tensor parallelism</source>
        <translation>引擎的张量并行度</translation>
    </message>
    <message>
        <source>Engine memory</source>
        <translation>引擎显存</translation>
    </message>
    <message>
        <source>engine memory utilization</source>
        <translation>引擎显存占用比例</translation>
    </message>
    <message>
        <source>gpu_memory_utilization: the engine&apos;s share of the GPU (its weights, KV cache and activations)</source>
        <translation>引擎占用显卡显存的比例（其权重、KV 缓存和激活值）</translation>
    </message>
    <message>
        <source>Sleep level</source>
        <translation>休眠级别</translation>
    </message>
    <message>
        <source>sleep level</source>
        <translation>休眠级别</translation>
    </message>
    <message>
        <source>What the engine frees between generations: 1 keeps its weights in CPU memory, 2 discards them</source>
        <translation>引擎在两次生成之间释放什么：1 将权重保存在内存中，2 丢弃权重</translation>
    </message>
    <message>
        <source>Offload</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>policy parameter offload</source>
        <translation>策略模型参数卸载</translation>
    </message>
    <message>
        <source>The policy&apos;s weights leave the GPU while the engine generates</source>
        <translation>引擎生成时策略模型的权重离开显卡</translation>
    </message>
    <message>
        <source>policy optimizer offload</source>
        <translation>策略模型优化器卸载</translation>
    </message>
    <message>
        <source>The optimizer states stay in CPU memory outside the update</source>
        <translation>更新之外优化器状态留在内存中</translation>
    </message>
    <message>
        <source>reference offload</source>
        <translation>参考模型卸载</translation>
    </message>
    <message>
        <source>The reference&apos;s weights in CPU memory, one layer on the GPU while it runs</source>
        <translation>参考模型的权重在内存中，运行时显卡上只有一层</translation>
    </message>
    <message>
        <source>Log-prob micro-batch</source>
        <translation>对数概率微批次</translation>
    </message>
    <message>
        <source>log-prob micro-batch</source>
        <translation>对数概率微批次</translation>
    </message>
    <message>
        <source>Sequences per no-grad forward of the experience phase (log_prob_micro_batch_size)</source>
        <translation>经验阶段每次无梯度前向的序列数</translation>
    </message>
    <message>
        <source>Turn RL on first (Rollout engine: plan phase by phase)</source>
        <translation>请先开启强化学习（推演引擎：逐阶段规划）</translation>
    </message>
    <message>
        <source>%1 learns from pairs in the data set: nothing is generated</source>
        <translation>%1 从数据集中的样本对学习：不生成任何内容</translation>
    </message>
    <message>
        <source>generate() in the training process has no engine budget or sleep mode</source>
        <translation>训练进程中的 generate() 没有引擎预算或休眠模式</translation>
    </message>
    <message>
        <source>The engine has GPUs of its own</source>
        <translation>引擎使用自己的显卡</translation>
    </message>
    <message>
        <source>The engine shares the training GPUs (colocated)</source>
        <translation>引擎与训练共用显卡（共置）</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::RlPhaseChart</name>
    <message>
        <source>Phase, and who holds the most of it</source>
        <translation>阶段，以及占用最多的一方</translation>
    </message>
    <message>
        <source>Memory through one RL step, per trainer GPU</source>
        <translation>一个强化学习步骤中的显存（每张训练显卡）</translation>
    </message>
    <message>
        <source>Memory per RL phase, per trainer GPU</source>
        <translation>各强化学习阶段的显存（每张训练显卡）</translation>
    </message>
    <message>
        <source>Preview: %1</source>
        <translation>预览：%1</translation>
    </message>
    <message>
        <source>none</source>
        <comment>a phase the algorithm does not have</comment>
        <translation>无</translation>
    </message>
    <message>
        <source>%1
(next step)</source>
        <translation>%1
（下一步）</translation>
    </message>
    <message>
        <source>engine sleeps:
frees %1</source>
        <translation>引擎休眠：
释放 %1</translation>
    </message>
    <message>
        <source>engine wakes</source>
        <translation>引擎唤醒</translation>
    </message>
    <message>
        <source>engine stays awake:
no sleep mode</source>
        <translation>引擎保持唤醒：
无休眠模式</translation>
    </message>
    <message>
        <source>GPU capacity %1</source>
        <translation>显卡容量 %1</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::RlPhaseText</name>
    <message>
        <source>rollout engine</source>
        <translation>推演引擎</translation>
    </message>
    <message>
        <source>policy</source>
        <translation>策略模型</translation>
    </message>
    <message>
        <source>reference model</source>
        <translation>参考模型</translation>
    </message>
    <message>
        <source>reward model</source>
        <translation>奖励模型</translation>
    </message>
    <message>
        <source>critic</source>
        <translation>价值模型</translation>
    </message>
    <message>
        <source>CUDA context and NCCL</source>
        <translation>CUDA 上下文与 NCCL</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Experience</source>
        <translation>经验</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>%1
engine cannot start</source>
        <translation>%1
引擎无法启动</translation>
    </message>
    <message>
        <source>%1, peak</source>
        <comment>a phase&apos;s device total</comment>
        <translation>%1，峰值</translation>
    </message>
    <message>
        <source>%1: not part of this algorithm (pairs come from the data set)</source>
        <translation>%1：不属于该算法（样本对来自数据集）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: device %2 (allocated %3, reserved %4); most held by the %5 (%6)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：设备 %2（已分配 %3，已保留 %4）；占用最多的是%5（%6）</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::RunTimelineChart</name>
    <message>
        <source>Measured through the run, over the planned step</source>
        <translation>整个运行的实测值，叠加在计划的训练步上</translation>
    </message>
    <message>
        <source>planned allocated, by phase</source>
        <translation>计划已分配（按阶段）</translation>
    </message>
    <message>
        <source>measured reserved</source>
        <translation>实测已保留</translation>
    </message>
    <message>
        <source>measured allocated</source>
        <translation>实测已分配</translation>
    </message>
    <message>
        <source>planned reserved peak</source>
        <translation>计划已保留峰值</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>时间（毫秒）</translation>
    </message>
    <message>
        <source>Trace entry</source>
        <translation>追踪记录序号</translation>
    </message>
    <message>
        <source>One step (no timeline in these files)</source>
        <translation>一个训练步（这些文件没有时间线）</translation>
    </message>
    <message>
        <source>planned reserved peak %1</source>
        <translation>计划已保留峰值 %1</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::SaversGroup</name>
    <message>
        <source>Memory savers</source>
        <translation>显存节省</translation>
    </message>
    <message>
        <source>0: DDP</source>
        <translation>0：DDP</translation>
    </message>
    <message>
        <source>Every data-parallel GPU holds a full replica (DDP)</source>
        <translation>每张数据并行 GPU 都持有完整副本（DDP）</translation>
    </message>
    <message>
        <source>1: states</source>
        <translation>1：优化器状态</translation>
    </message>
    <message>
        <source>Optimizer states sharded over the data-parallel GPUs (ZeRO-1, Megatron&apos;s distributed optimizer)</source>
        <translation>优化器状态在数据并行 GPU 间分片（ZeRO-1，Megatron 的分布式优化器）</translation>
    </message>
    <message>
        <source>2: + gradients</source>
        <translation>2：+ 梯度</translation>
    </message>
    <message>
        <source>Optimizer states and gradients sharded (ZeRO-2, FSDP shard-grad-op)</source>
        <translation>优化器状态与梯度分片（ZeRO-2，FSDP SHARD_GRAD_OP）</translation>
    </message>
    <message>
        <source>3: + parameters</source>
        <translation>3：+ 参数</translation>
    </message>
    <message>
        <source>Optimizer states, gradients and parameters sharded (ZeRO-3, FSDP full shard): each layer&apos;s weights gathered while it runs</source>
        <translation>优化器状态、梯度和参数均分片（ZeRO-3，FSDP FULL_SHARD）：每层权重在运行时才收集</translation>
    </message>
    <message>
        <source>Kept on the GPU</source>
        <translation>保留在 GPU 上</translation>
    </message>
    <message>
        <source>Moved to CPU memory (DeepSpeed/FSDP CPU offload)</source>
        <translation>移至 CPU 内存（DeepSpeed/FSDP CPU 卸载）</translation>
    </message>
    <message>
        <source>Moved to NVMe (DeepSpeed ZeRO-Infinity)</source>
        <translation>移至 NVMe（DeepSpeed ZeRO-Infinity）</translation>
    </message>
    <message>
        <source>Every layer keeps what backward needs</source>
        <translation>每层都保存反向传播所需的全部内容</translation>
    </message>
    <message>
        <source>The attention core is recomputed in backward (Megatron selective recomputation)</source>
        <translation>注意力核心部分在反向传播时重计算（Megatron 选择性重计算）</translation>
    </message>
    <message>
        <source>Each recomputed layer keeps only its input and runs its forward again in backward (gradient checkpointing)</source>
        <translation>每个重计算的层只保存其输入，在反向传播时再执行一次前向（梯度检查点）</translation>
    </message>
    <message>
        <source>Attention in plain PyTorch ops: the s x s scores and probabilities are kept</source>
        <translation>用普通 PyTorch 算子实现的注意力：保存 s x s 的分数和概率矩阵</translation>
    </message>
    <message>
        <source>torch scaled_dot_product_attention (a fused kernel where the inputs allow it)</source>
        <translation>torch scaled_dot_product_attention（输入允许时使用融合算子）</translation>
    </message>
    <message>
        <source>FlashAttention: no s x s scores, only the output and a log-sum-exp per row</source>
        <translation>FlashAttention：不保存 s x s 分数，只保存输出和每行一个 log-sum-exp</translation>
    </message>
    <message>
        <source>ZeRO / FSDP</source>
        <translation>ZeRO / FSDP</translation>
    </message>
    <message>
        <source>ZeRO / FSDP stage</source>
        <translation>ZeRO / FSDP 阶段</translation>
    </message>
    <message>
        <source>What is sharded over the data-parallel GPUs; each stage&apos;s tooltip says what</source>
        <translation>在数据并行 GPU 间分片的内容；各阶段的提示说明具体分片什么</translation>
    </message>
    <message>
        <source>Offload optimizer</source>
        <translation>卸载优化器</translation>
    </message>
    <message>
        <source>optimizer offload</source>
        <translation>优化器卸载</translation>
    </message>
    <message>
        <source>Where the optimizer states live</source>
        <translation>优化器状态存放的位置</translation>
    </message>
    <message>
        <source>Offload parameters</source>
        <translation>卸载参数</translation>
    </message>
    <message>
        <source>parameter offload</source>
        <translation>参数卸载</translation>
    </message>
    <message>
        <source>Where the sharded parameters live between uses (ZeRO-3 / FSDP full shard)</source>
        <translation>分片参数在两次使用之间存放的位置（ZeRO-3 / FSDP FULL_SHARD）</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>recomputation</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Activations recomputed in backward instead of kept: less memory, more compute</source>
        <translation>激活值在反向传播时重新计算而不保存：显存更少，计算更多</translation>
    </message>
    <message>
        <source>Recomputed layers</source>
        <translation>重计算层数</translation>
    </message>
    <message>
        <source>recomputed layers</source>
        <translation>重计算层数</translation>
    </message>
    <message>
        <source>Layers recomputed per stage (the rest keep everything)</source>
        <translation>每个阶段重计算的层数（其余层保存全部内容）</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力实现</translation>
    </message>
    <message>
        <source>attention kernel</source>
        <translation>注意力算子</translation>
    </message>
    <message>
        <source>The attention implementation: it decides whether the s x s scores are kept</source>
        <translation>注意力的实现方式：决定是否保存 s x s 的分数矩阵</translation>
    </message>
    <message>
        <source>Every weight is trained: gradients and optimizer states for all of them</source>
        <translation>训练全部权重：所有权重都有梯度和优化器状态</translation>
    </message>
    <message>
        <source>Low-rank adapters on the target modules are trained; the base weights stay frozen in 16-bit</source>
        <translation>训练目标模块上的低秩适配器；基座权重以 16 位冻结</translation>
    </message>
    <message>
        <source>LoRA over base weights quantised to 4-bit NF4</source>
        <translation>基座权重量化为 4 位 NF4 的 LoRA</translation>
    </message>
    <message>
        <source>q_proj, v_proj (or all-linear)</source>
        <translation>q_proj, v_proj（或 all-linear）</translation>
    </message>
    <message>
        <source>NF4 (bitsandbytes), with block-wise scales: QLoRA</source>
        <translation>NF4（bitsandbytes），带分块缩放因子：QLoRA</translation>
    </message>
    <message>
        <source>LLM.int8 (bitsandbytes)</source>
        <translation>LLM.int8（bitsandbytes）</translation>
    </message>
    <message>
        <source>bf16 or fp16: plain LoRA</source>
        <translation>bf16 或 fp16：普通 LoRA</translation>
    </message>
    <message>
        <source>fp32</source>
        <translation>fp32</translation>
    </message>
    <message>
        <source>%1-bit</source>
        <translation>%1 位</translation>
    </message>
    <message>
        <source>Fine-tuning</source>
        <translation>微调方式</translation>
    </message>
    <message>
        <source>fine-tuning</source>
        <translation>微调方式</translation>
    </message>
    <message>
        <source>Which weights are trained</source>
        <translation>训练哪些权重</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>The adapters&apos; rank r: each adapts a matrix with r x (in + out) trainable weights</source>
        <translation>适配器的秩 r：每个适配器以 r x (in + out) 个可训练权重适配一个矩阵</translation>
    </message>
    <message>
        <source>LoRA targets</source>
        <translation>LoRA 目标模块</translation>
    </message>
    <message>
        <source>Modules to adapt, as PEFT&apos;s target_modules: q_proj ... down_proj, a family&apos;s own names (query, value, c_attn, c_proj, fc1, fc2, query_key_value, dense_h_to_4h, w1 ... w3), or all-linear. A fused q/k/v module gets one adapter.</source>
        <translation>要适配的模块，写法同 PEFT 的 target_modules：q_proj ... down_proj、各模型系列自己的名称（query、value、c_attn、c_proj、fc1、fc2、query_key_value、dense_h_to_4h、w1 ... w3），或 all-linear。融合的 q/k/v 模块只有一个适配器。</translation>
    </message>
    <message>
        <source>Base weights</source>
        <translation>基座权重</translation>
    </message>
    <message>
        <source>base weight bits</source>
        <translation>基座权重位数</translation>
    </message>
    <message>
        <source>Bits per frozen base weight under LoRA (QLoRA: 4)</source>
        <translation>LoRA 下每个冻结基座权重的位数（QLoRA 为 4）</translation>
    </message>
    <message>
        <source>Applies to training only (the mode is inference)</source>
        <translation>仅适用于训练（当前模式为推理）</translation>
    </message>
    <message>
        <source>Parameter offload needs ZeRO stage 3 / FSDP full shard</source>
        <translation>参数卸载需要 ZeRO 阶段 3 / FSDP FULL_SHARD</translation>
    </message>
    <message>
        <source>Only with full recomputation</source>
        <translation>仅在完全重计算时可用</translation>
    </message>
    <message>
        <source>Only for LoRA and QLoRA fine-tuning</source>
        <translation>仅适用于 LoRA 和 QLoRA 微调</translation>
    </message>
    <message numerus="yes">
        <source>ZeRO/FSDP shards over data-parallel GPUs: with %n GPU(s) and this layout there is one data-parallel rank</source>
        <translation>
            <numerusform>ZeRO/FSDP 在数据并行 GPU 间分片：%n 张 GPU 按此布局只有一个数据并行 rank</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ScenarioFile</name>
    <message>
        <source>%1: is a folder, not a file</source>
        <translation>%1：是文件夹，不是文件</translation>
    </message>
    <message>
        <source>%1: larger than 64 MiB; not a scenario</source>
        <translation>%1：大于 64 MiB，不是场景文件</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ScenarioName</name>
    <message>
        <source>%1 custom model</source>
        <translation>%1 自定义模型</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>SGD（动量）</translation>
    </message>
    <message>
        <source>paged AdamW</source>
        <translation>分页 AdamW</translation>
    </message>
    <message>
        <source>paged 8-bit AdamW</source>
        <translation>分页 8-bit AdamW</translation>
    </message>
    <message>
        <source>full fine-tune</source>
        <translation>全参数微调</translation>
    </message>
    <message>
        <source>all linear layers</source>
        <translation>全部线性层</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <comment>LoRA on all linear layers</comment>
        <translation>%2上的 %1</translation>
    </message>
    <message>
        <source>inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>%1 context</source>
        <translation>%1 上下文</translation>
    </message>
    <message>
        <source>micro-batch %1</source>
        <translation>微批次 %1</translation>
    </message>
    <message>
        <source>%1 recompute</source>
        <translation>%1重计算</translation>
    </message>
    <message>
        <source>optimizer offload</source>
        <translation>优化器卸载</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the parts of a name</comment>
        <translation>，</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ServingCharts</name>
    <message>
        <source>Concurrency</source>
        <translation>并发数</translation>
    </message>
    <message>
        <source>KV tokens</source>
        <translation>KV token 数</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ServingCurveChart</name>
    <message>
        <source>1 request: the engine&apos;s minimum</source>
        <translation>1 个请求：引擎启动的最低要求</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <source>%1 requests</source>
        <translation>%1 个请求</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: does not start</source>
        <translation>%1：无法启动</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2：%3</translation>
    </message>
    <message>
        <source>%1 %2: %3 (the engine would not start)</source>
        <translation>%1 %2：%3（引擎无法启动）</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ServingCurves</name>
    <message>
        <source>Concurrency vs context length</source>
        <translation>并发数随上下文长度的变化</translation>
    </message>
    <message>
        <source>max_model_len (tokens)</source>
        <translation>max_model_len（token）</translation>
    </message>
    <message>
        <source>Requests of max_model_len at once</source>
        <translation>可同时容纳的 max_model_len 长度请求数</translation>
    </message>
    <message>
        <source>max_model_len</source>
        <translation>max_model_len</translation>
    </message>
    <message>
        <source>KV-cache tokens vs gpu_memory_utilization</source>
        <translation>KV 缓存 token 数随 gpu_memory_utilization 的变化</translation>
    </message>
    <message>
        <source>gpu_memory_utilization (share of the GPU&apos;s CUDA total)</source>
        <translation>gpu_memory_utilization（占 GPU CUDA 总显存的比例）</translation>
    </message>
    <message>
        <source>KV-cache tokens</source>
        <translation>KV 缓存 token 数</translation>
    </message>
    <message>
        <source>gpu_memory_utilization</source>
        <translation>gpu_memory_utilization</translation>
    </message>
    <message>
        <source>Concurrency vs tensor parallelism</source>
        <translation>并发数随张量并行规模的变化</translation>
    </message>
    <message>
        <source>Tensor-parallel size (GPUs per engine)</source>
        <translation>张量并行规模（每个引擎的 GPU 数）</translation>
    </message>
    <message>
        <source>tensor parallel</source>
        <translation>张量并行</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ServingGroup</name>
    <message>
        <source>Serving</source>
        <translation>推理服务</translation>
    </message>
    <message>
        <source>CUDA graphs</source>
        <translation>CUDA Graph</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>No server: one naive forward pass over the batch, as inference was planned before engines</source>
        <translation>不使用推理服务：对整个批次做一次朴素的前向传播，即引入推理引擎之前的推理规划方式</translation>
    </message>
    <message>
        <source>vLLM: a budget of gpu_memory_utilization x the GPU; what the weights, the profiling run and memory outside PyTorch leave is the paged KV cache</source>
        <translation>vLLM：预算为 gpu_memory_utilization x GPU 显存；权重、显存剖析运行和 PyTorch 之外的显存用剩的部分即为分页 KV 缓存</translation>
    </message>
    <message>
        <source>SGLang: mem_fraction_static x the free memory at start, less the weights, is the token pool</source>
        <translation>SGLang：mem_fraction_static x 启动时的空闲显存，减去权重，即为 token 池</translation>
    </message>
    <message>
        <source>transformers generate: the cache grows with the batch&apos;s tokens; no budget, it fits or runs out of memory</source>
        <translation>transformers generate：缓存随批次的 token 增长；没有预算，要么放得下，要么显存溢出</translation>
    </message>
    <message>
        <source>The model&apos;s dtype (2 bytes per element)</source>
        <translation>与模型相同的数据类型（每个元素 2 字节）</translation>
    </message>
    <message>
        <source>fp8 e4m3: one byte per element, twice the tokens</source>
        <translation>fp8 e4m3：每个元素 1 字节，token 数翻倍</translation>
    </message>
    <message>
        <source>16-bit weights as the checkpoint ships them</source>
        <translation>检查点原样提供的 16 位权重</translation>
    </message>
    <message>
        <source>fp8 e4m3 weights with an fp32 scale per 128 x 128 block</source>
        <translation>fp8 e4m3 权重，每个 128 x 128 块一个 fp32 缩放因子</translation>
    </message>
    <message>
        <source>4-bit AWQ: groups of 128 with fp16 scales and zeros</source>
        <translation>4 位 AWQ：每 128 个一组，带 fp16 缩放因子和零点</translation>
    </message>
    <message>
        <source>4-bit GPTQ: as AWQ, plus g_idx</source>
        <translation>4 位 GPTQ：同 AWQ，另加 g_idx</translation>
    </message>
    <message>
        <source>MXFP4 experts (gpt-oss): fp4 with a scale per 32</source>
        <translation>MXFP4 专家（gpt-oss）：fp4，每 32 个一个缩放因子</translation>
    </message>
    <message>
        <source>bitsandbytes NF4: 4-bit blocks of 64</source>
        <translation>bitsandbytes NF4：每 64 个一块的 4 位量化</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>serving engine</source>
        <translation>推理引擎</translation>
    </message>
    <message>
        <source>The inference server whose allocation is planned; none is one naive forward pass</source>
        <translation>要规划显存分配的推理服务；选“无”即一次朴素的前向传播</translation>
    </message>
    <message>
        <source>GPU memory use</source>
        <translation>GPU 显存占比</translation>
    </message>
    <message>
        <source>GPU memory utilization</source>
        <translation>GPU 显存占比</translation>
    </message>
    <message>
        <source>vLLM&apos;s gpu_memory_utilization (SGLang&apos;s mem_fraction_static): the share of the GPU the engine may take; the KV cache gets what the rest leaves of it</source>
        <translation>vLLM 的 gpu_memory_utilization（SGLang 的 mem_fraction_static）：引擎可占用的 GPU 显存比例；其余部分用剩的归 KV 缓存</translation>
    </message>
    <message>
        <source>max_model_len</source>
        <translation>max_model_len</translation>
    </message>
    <message>
        <source>The longest request in tokens (prompt and output): the KV cache must hold at least one request of it for the engine to start</source>
        <translation>最长请求的 token 数（提示词加输出）：KV 缓存至少要容纳一个这样的请求，引擎才能启动</translation>
    </message>
    <message>
        <source>max_num_seqs</source>
        <translation>max_num_seqs</translation>
    </message>
    <message>
        <source>The most requests scheduled at once; the sampler&apos;s profiling run grows with it</source>
        <translation>同时调度的最大请求数；采样器的显存剖析运行随之增长</translation>
    </message>
    <message>
        <source>KV cache dtype</source>
        <translation>KV 缓存数据类型</translation>
    </message>
    <message>
        <source>How cached keys and values are stored</source>
        <translation>缓存的键和值的存储方式</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>weight quantization</source>
        <translation>权重量化</translation>
    </message>
    <message>
        <source>How the linear weights are stored on the GPU (vLLM --quantization)</source>
        <translation>线性层权重在 GPU 上的存储方式（vLLM --quantization）</translation>
    </message>
    <message>
        <source>Block size</source>
        <translation>块大小</translation>
    </message>
    <message>
        <source>block size</source>
        <translation>块大小</translation>
    </message>
    <message>
        <source>Tokens per KV-cache block (SGLang: page size); the cache is allocated in whole blocks</source>
        <translation>每个 KV 缓存块的 token 数（SGLang 中为页大小）；缓存按整块分配</translation>
    </message>
    <message>
        <source>Captured decode graphs (off: vLLM --enforce-eager). vLLM up to 0.20 captures them after the KV cache, outside its budget; from 0.21 its estimate of them comes out of the budget first</source>
        <translation>捕获的解码图（关闭即 vLLM --enforce-eager）。vLLM 0.20 及以前在 KV 缓存之后捕获，不计入预算；自 0.21 起先从预算中扣除其估算值</translation>
    </message>
    <message>
        <source>current release</source>
        <translation>当前版本</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>engine release</source>
        <translation>引擎版本</translation>
    </message>
    <message>
        <source>The engine&apos;s release where its accounting changed (&quot;0.21&quot;, &quot;vllm 0.6.4&quot;): vLLM from 0.21 takes its CUDA-graph estimate out of the KV budget, and before 0.8 ran the V0 engine&apos;s batch defaults. Empty: the current release</source>
        <translation>引擎显存核算方式发生变化的版本（&quot;0.21&quot;、&quot;vllm 0.6.4&quot;）：vLLM 自 0.21 起从 KV 预算中扣除 CUDA Graph 的估算值，0.8 之前使用 V0 引擎的批次默认值。留空：当前版本</translation>
    </message>
    <message>
        <source>Choose an engine first: without one, inference is a single forward pass</source>
        <translation>请先选择引擎：没有引擎时，推理只是一次前向传播</translation>
    </message>
    <message>
        <source>transformers generate has no memory budget: it fits or runs out of memory</source>
        <translation>transformers generate 没有显存预算：要么放得下，要么显存溢出</translation>
    </message>
    <message>
        <source>transformers generate: the batch is the micro-batch</source>
        <translation>transformers generate：批次即微批次</translation>
    </message>
    <message>
        <source>transformers caches token by token, not in blocks</source>
        <translation>transformers 逐 token 缓存，不按块分配</translation>
    </message>
    <message>
        <source>transformers generate captures no CUDA graphs here</source>
        <translation>transformers generate 在此不捕获 CUDA Graph</translation>
    </message>
    <message>
        <source>Only vLLM&apos;s accounting changes with its release here</source>
        <translation>此处只有 vLLM 的显存核算方式随版本变化</translation>
    </message>
    <message>
        <source>The engine would not start: %1</source>
        <translation>引擎无法启动：%1</translation>
    </message>
    <message>
        <source>KV cache %1: %2 tokens, %3 requests of %4 tokens at once</source>
        <translation>KV 缓存 %1：%2 个 token，可同时容纳 %3 个 %4 token 的请求</translation>
    </message>
    <message>
        <source>max_num_batched_tokens</source>
        <translation>max_num_batched_tokens</translation>
    </message>
    <message>
        <source>The most tokens in one scheduler step: the profiling run&apos;s activations grow with it, out of the same budget as the KV cache (at least max_num_seqs)</source>
        <translation>单个调度步骤的最大 token 数：性能剖析运行的激活值随之增长，与 KV 缓存共用同一预算（不小于 max_num_seqs）</translation>
    </message>
    <message>
        <source>Target requests</source>
        <translation>目标请求数</translation>
    </message>
    <message>
        <source>target requests</source>
        <translation>目标请求数</translation>
    </message>
    <message>
        <source>How many requests the server must hold at once: what &quot;Make it fit&quot; searches for (max_num_seqs is only the scheduler&apos;s cap)</source>
        <translation>服务需同时容纳的请求数：“显存适配建议”据此搜索（max_num_seqs 只是调度器的上限）</translation>
    </message>
    <message>
        <source>Target tokens</source>
        <translation>目标 token 数</translation>
    </message>
    <message>
        <source>target tokens</source>
        <translation>目标 token 数</translation>
    </message>
    <message>
        <source>The tokens of each of those requests (prompt and output); at its lowest, max_model_len</source>
        <translation>每个请求的 token 数（提示与输出）；调到最低即为 max_model_len</translation>
    </message>
    <message>
        <source>Only vLLM&apos;s profiling run is sized by max_num_batched_tokens here</source>
        <translation>此处只有 vLLM 的性能剖析运行由 max_num_batched_tokens 决定</translation>
    </message>
    <message>
        <source>No one setting of this server starts it: a larger GPU, more of them or quantized weights might (Make it fit).</source>
        <translation>单独调整此服务的任何一项设置都无法启动：更大的 GPU、更多 GPU 或量化权重也许可以（显存适配建议）。</translation>
    </message>
    <message>
        <source>It would start with any one of: %1.</source>
        <translation>以下任意一项即可启动：%1。</translation>
    </message>
    <message>
        <source>Target %1 × %2 tokens at once: served (room for %3)</source>
        <translation>目标 %1 × %2 个 token 同时服务：可满足（可容纳 %3）</translation>
    </message>
    <message>
        <source>Target %1 × %2 tokens at once: not served (room for %3)</source>
        <translation>目标 %1 × %2 个 token 同时服务：无法满足（可容纳 %3）</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::ServingNames</name>
    <message>
        <source>%1 custom model</source>
        <translation>%1 自定义模型</translation>
    </message>
    <message>
        <source>%1 weights</source>
        <translation>%1 权重</translation>
    </message>
    <message>
        <source>fp8 KV cache</source>
        <translation>fp8 KV 缓存</translation>
    </message>
    <message>
        <source>16-bit KV cache</source>
        <translation>16 位 KV 缓存</translation>
    </message>
    <message>
        <source>max_model_len %1</source>
        <translation>max_model_len %1</translation>
    </message>
    <message>
        <source>max_num_seqs %1</source>
        <translation>max_num_seqs %1</translation>
    </message>
    <message>
        <source>TP %1</source>
        <translation>张量并行 %1</translation>
    </message>
    <message>
        <source>PP %1</source>
        <translation>流水线并行 %1</translation>
    </message>
    <message>
        <source>%1 x %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>%1: the engine would not start</source>
        <translation>%1：引擎无法启动</translation>
    </message>
    <message>
        <source>%1: KV cache %2, %3 tokens, %4 requests of %5 at once</source>
        <translation>%1：KV 缓存 %2，%3 个 token，可同时容纳 %4 个 %5 长度的请求</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::SetupImportActions</name>
    <message>
        <source>Import &amp;Training Setup...</source>
        <translation>导入训练配置(&amp;T)...</translation>
    </message>
    <message>
        <source>Export Training Set&amp;up...</source>
        <translation>导出训练配置(&amp;U)...</translation>
    </message>
    <message>
        <source>Import Training Setup</source>
        <translation>导入训练配置</translation>
    </message>
    <message>
        <source>Training setups (*.json *.yaml *.yml *.toml *.sh);;All files (*)</source>
        <translation>训练配置 (*.json *.yaml *.yml *.toml *.sh);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Number of GPUs:</source>
        <translation>GPU 数量：</translation>
    </message>
    <message>
        <source>GPU:</source>
        <translation>GPU：</translation>
    </message>
    <message>
        <source>Model (a preset, or the path of a config.json or a checkpoint folder):</source>
        <translation>模型（预设，或 Hugging Face 配置文件、检查点文件夹的路径）：</translation>
    </message>
    <message>
        <source>Import cancelled.</source>
        <translation>已取消导入。</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
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
        <source>Imported: %1</source>
        <translation>已导入：%1</translation>
    </message>
    <message>
        <source>Read as: %1. Each field of the scenario and where it came from; Edit &gt; Undo restores the scenario before the import.</source>
        <translation>识别为：%1。下表列出场景的每个字段及其来源；“编辑 &gt; 撤销”可恢复导入前的场景。</translation>
    </message>
    <message>
        <source>The training setup cannot be imported:
%1</source>
        <translation>无法导入该训练配置：
%1</translation>
    </message>
    <message>
        <source>DeepSpeed config (*.json)</source>
        <translation>DeepSpeed 配置 (*.json)</translation>
    </message>
    <message>
        <source>Axolotl YAML (*.yaml)</source>
        <translation>Axolotl 配置 (*.yaml)</translation>
    </message>
    <message>
        <source>LLaMA-Factory YAML (*.yaml)</source>
        <translation>LLaMA-Factory 配置 (*.yaml)</translation>
    </message>
    <message>
        <source>torchtune overrides (*.txt)</source>
        <translation>torchtune 覆盖参数 (*.txt)</translation>
    </message>
    <message>
        <source>Megatron-LM flags (*.sh)</source>
        <translation>Megatron-LM 命令行参数 (*.sh)</translation>
    </message>
    <message>
        <source>Export Training Setup</source>
        <translation>导出训练配置</translation>
    </message>
    <message>
        <source>%1: cannot be written (%2)</source>
        <translation>%1：无法写入（%2）</translation>
    </message>
    <message>
        <source>Accelerate config (*.yaml)</source>
        <translation>Accelerate 配置 (*.yaml)</translation>
    </message>
    <message>
        <source>TRL config (*.yaml)</source>
        <translation>TRL 配置 (*.yaml)</translation>
    </message>
    <message>
        <source>verl launch script (*.sh)</source>
        <translation>verl 启动脚本 (*.sh)</translation>
    </message>
    <message>
        <source>torchtitan train config (*.toml)</source>
        <translation>torchtitan 训练配置 (*.toml)</translation>
    </message>
    <message>
        <source>ms-swift launch script (*.sh)</source>
        <translation>ms-swift 启动脚本 (*.sh)</translation>
    </message>
    <message>
        <source>Written to %1.

What the file cannot say (also at its top, where the format has comments):
%2</source>
        <translation>已写入 %1。

该文件无法表达的设置（格式支持注释时也写在文件开头）：
%2</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::SizeAxis</name>
    <message>
        <source>Memory per GPU</source>
        <translation>每 GPU 显存</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <comment>an axis title: what, unit</comment>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 per GPU</source>
        <comment>an axis title: a unit</comment>
        <translation>每 GPU %1</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::StackGroup</name>
    <message>
        <source>Training stack</source>
        <translation>训练栈</translation>
    </message>
    <message>
        <source>torch.compile</source>
        <translation>torch.compile</translation>
    </message>
    <message>
        <source>Loss compiled too</source>
        <translation>同时编译损失</translation>
    </message>
    <message>
        <source>Float8 all-gather</source>
        <translation>Float8 all-gather</translation>
    </message>
    <message>
        <source>The framework&apos;s own cross-entropy</source>
        <translation>框架自带的交叉熵</translation>
    </message>
    <message>
        <source>Cross-entropy over chunks of the sequence (torchtune)</source>
        <translation>按序列分块计算交叉熵（torchtune）</translation>
    </message>
    <message>
        <source>Head and cross-entropy fused: the full logits never exist (Liger, Cut Cross-Entropy, Unsloth)</source>
        <translation>输出头与交叉熵融合：完整的 logits 从不生成（Liger、Cut Cross-Entropy、Unsloth）</translation>
    </message>
    <message>
        <source>The model&apos;s own PyTorch ops</source>
        <translation>模型自带的 PyTorch 算子</translation>
    </message>
    <message>
        <source>Liger-Kernel&apos;s fused RMSNorm, SwiGLU/GeGLU and RoPE</source>
        <translation>Liger-Kernel 的融合 RMSNorm、SwiGLU/GeGLU 和 RoPE 算子</translation>
    </message>
    <message>
        <source>A loop that holds the model&apos;s outputs until backward</source>
        <translation>将模型输出一直保留到反向传播的训练循环</translation>
    </message>
    <message>
        <source>HF Trainer, TRL, Axolotl, LLaMA-Factory: the returned logits are freed before backward</source>
        <translation>HF Trainer、TRL、Axolotl、LLaMA-Factory：返回的 logits 在反向传播前释放</translation>
    </message>
    <message>
        <source>current release</source>
        <translation>当前版本</translation>
    </message>
    <message>
        <source>Compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>The step runs under torch.compile: elementwise ops are recomputed in backward, only matmul and attention outputs are kept</source>
        <translation>训练步在 torch.compile 下运行：逐元素算子在反向传播时重计算，只保存矩阵乘法和注意力的输出</translation>
    </message>
    <message>
        <source>loss compile</source>
        <translation>损失编译</translation>
    </message>
    <message>
        <source>Whether the loss is compiled with the model (torchtitan&apos;s compile.components)</source>
        <translation>损失是否与模型一起编译（torchtitan 的 compile.components）</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>kernels</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Fused kernels patched into the model; each choice&apos;s tooltip says which</source>
        <translation>注入模型的融合算子；各选项的提示说明具体是哪些</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>How the logits and the cross-entropy are computed; each choice&apos;s tooltip says how</source>
        <translation>logits 和交叉熵的计算方式；各选项的提示说明具体做法</translation>
    </message>
    <message>
        <source>Loop</source>
        <translation>训练循环</translation>
    </message>
    <message>
        <source>training loop</source>
        <translation>训练循环</translation>
    </message>
    <message>
        <source>What drives the step with Hugging Face models</source>
        <translation>驱动 Hugging Face 模型训练步的方式</translation>
    </message>
    <message>
        <source>FSDP</source>
        <translation>FSDP</translation>
    </message>
    <message>
        <source>float8 all-gather</source>
        <translation>float8 all-gather</translation>
    </message>
    <message>
        <source>FSDP2 all-gathers the linear weights in float8, 1 byte each (torchao; torchtitan&apos;s float8.enable_fsdp_float8_all_gather)</source>
        <translation>FSDP2 以 float8（每个 1 字节）all-gather 线性层权重（torchao；torchtitan 的 float8.enable_fsdp_float8_all_gather）</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>framework release</source>
        <translation>框架版本</translation>
    </message>
    <message>
        <source>The framework&apos;s release (&quot;4.57&quot;) where its memory behaviour changed between releases; empty means the current one</source>
        <translation>框架的版本（&quot;4.57&quot;），用于其显存行为随版本变化的情况；留空表示当前版本</translation>
    </message>
    <message>
        <source>Applies to training only (the mode is inference)</source>
        <translation>仅适用于训练（当前模式为推理）</translation>
    </message>
    <message>
        <source>An engine serves the model: its release is the serving group&apos;s</source>
        <translation>模型由推理引擎提供服务：其版本在“推理服务”组中设置</translation>
    </message>
    <message>
        <source>Applies when the step is compiled</source>
        <translation>仅在训练步被编译时适用</translation>
    </message>
    <message>
        <source>Applies to fp8 mixed precision under FSDP2 full shard (ZeRO stage 3 over more than one data-parallel rank)</source>
        <translation>仅适用于 FSDP2 FULL_SHARD 下的 fp8 混合精度（ZeRO 阶段 3，且数据并行 rank 多于一个）</translation>
    </message>
    <message>
        <source>Fused cross-entropy kernel over the full logits (Megatron --cross-entropy-loss-fusion)</source>
        <translation>作用于完整 logits 的融合交叉熵内核（Megatron --cross-entropy-loss-fusion）</translation>
    </message>
    <message>
        <source>Experts as one grouped GEMM</source>
        <translation>专家合并为一次分组 GEMM</translation>
    </message>
    <message>
        <source>MoE</source>
        <translation>MoE</translation>
    </message>
    <message>
        <source>grouped GEMM</source>
        <translation>分组 GEMM</translation>
    </message>
    <message>
        <source>Megatron runs a MoE layer&apos;s experts through Transformer Engine&apos;s GroupedLinear (--moe-grouped-gemm), with four more cuBLAS workspaces</source>
        <translation>Megatron 通过 Transformer Engine 的分组线性层运行 MoE 层的专家（--moe-grouped-gemm），另需四块矩阵乘法库工作区</translation>
    </message>
    <message>
        <source>Applies to MoE models under Megatron</source>
        <translation>仅适用于 Megatron 下的 MoE 模型</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::StatusLine</name>
    <message>
        <source>Peak %1 per GPU (calibrated to your run)</source>
        <translation>每 GPU 峰值 %1（已按你的实测校准）</translation>
    </message>
    <message>
        <source>Peak %1 per GPU</source>
        <translation>每 GPU 峰值 %1</translation>
    </message>
    <message>
        <source>fits, %1 headroom</source>
        <translation>放得下，余量 %1</translation>
    </message>
    <message>
        <source>does not fit: over by %1</source>
        <translation>放不下：超出 %1</translation>
    </message>
    <message>
        <source>peak at %1</source>
        <translation>峰值出现在%1</translation>
    </message>
    <message>
        <source>the engine would not start</source>
        <translation>引擎无法启动</translation>
    </message>
    <message>
        <source>%1 parameters, %2 trainable</source>
        <translation>%1 参数，%2 可训练</translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation>%1 参数</translation>
    </message>
    <message>
        <source>⚠ %1 (+%2 more)</source>
        <translation>⚠ %1（另有 %2 条）</translation>
    </message>
    <message>
        <source>would fit (%1 headroom), but the framework cannot run it</source>
        <translation>可以放下（余量 %1），但该框架无法这样运行</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::TickLabels</name>
    <message>
        <source>end of forward</source>
        <translation>前向结束</translation>
    </message>
    <message>
        <source>start of backward (loss)</source>
        <translation>反向开始（损失）</translation>
    </message>
    <message>
        <source>backward of the last layer</source>
        <translation>末层反向</translation>
    </message>
    <message>
        <source>end of backward</source>
        <translation>反向结束</translation>
    </message>
    <message>
        <source>optimizer step</source>
        <translation>优化器步</translation>
    </message>
    <message>
        <source>validation pass</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>text generation</source>
        <translation>文本生成</translation>
    </message>
    <message>
        <source>model load (initialisation)</source>
        <translation>模型加载（初始化）</translation>
    </message>
    <message>
        <source>forward</source>
        <comment>a phase&apos;s short name</comment>
        <translation>前向</translation>
    </message>
    <message>
        <source>loss</source>
        <comment>a phase&apos;s short name</comment>
        <translation>损失</translation>
    </message>
    <message>
        <source>last layer</source>
        <comment>a phase&apos;s short name</comment>
        <translation>末层</translation>
    </message>
    <message>
        <source>backward</source>
        <comment>a phase&apos;s short name</comment>
        <translation>反向</translation>
    </message>
    <message>
        <source>optimizer</source>
        <comment>a phase&apos;s short name</comment>
        <translation>优化器</translation>
    </message>
    <message>
        <source>validation</source>
        <comment>a phase&apos;s short name</comment>
        <translation>验证</translation>
    </message>
    <message>
        <source>generation</source>
        <comment>a phase&apos;s short name</comment>
        <translation>生成</translation>
    </message>
    <message>
        <source>model load</source>
        <comment>a phase&apos;s short name</comment>
        <translation>加载</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::TimelineChart</name>
    <message>
        <source>Memory through one training step</source>
        <translation>一个训练步内的显存</translation>
    </message>
    <message>
        <source>capacity %1</source>
        <translation>容量 %1</translation>
    </message>
    <message>
        <source>peak: %1 allocated</source>
        <translation>峰值：已分配 %1</translation>
    </message>
    <message>
        <source>device %1</source>
        <translation>设备 %1</translation>
    </message>
    <message>
        <source>%1: %2 allocated</source>
        <translation>%1：已分配 %2</translation>
    </message>
    <message>
        <source>the peak of the step; the device holds %1</source>
        <translation>训练步的峰值；设备占用 %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::TrainingGroup</name>
    <message>
        <source>Mode, precision and optimizer</source>
        <translation>模式、精度与优化器</translation>
    </message>
    <message>
        <source>A training step: weights, gradients, optimizer states and the activations saved for backward</source>
        <translation>一个训练步：权重、梯度、优化器状态以及为反向传播保存的激活值</translation>
    </message>
    <message>
        <source>Forward only: weights and the KV cache, no gradients or optimizer states</source>
        <translation>只有前向：权重和 KV 缓存，没有梯度和优化器状态</translation>
    </message>
    <message>
        <source>Everything in fp32: 4 bytes per weight, gradient and activation</source>
        <translation>全部使用 fp32：每个权重、梯度和激活值 4 字节</translation>
    </message>
    <message>
        <source>PyTorch autocast to fp16 over fp32 weights (HF Trainer --fp16): fp32 weights, gradients and states, fp16 activations, 16-bit weight copies during forward</source>
        <translation>在 fp32 权重上用 PyTorch autocast 到 fp16（HF Trainer --fp16）：fp32 权重、梯度和状态，fp16 激活值，前向时有 16 位权重副本</translation>
    </message>
    <message>
        <source>PyTorch autocast to bf16 over fp32 weights (HF Trainer --bf16): fp32 weights, gradients and states, bf16 activations, 16-bit weight copies during forward</source>
        <translation>在 fp32 权重上用 PyTorch autocast 到 bf16（HF Trainer --bf16）：fp32 权重、梯度和状态，bf16 激活值，前向时有 16 位权重副本</translation>
    </message>
    <message>
        <source>fp16 weights and gradients with an fp32 master copy and fp32 optimizer states (Megatron, DeepSpeed fp16), loss scaling</source>
        <translation>fp16 权重和梯度，外加 fp32 主权重副本和 fp32 优化器状态（Megatron、DeepSpeed fp16），使用损失缩放</translation>
    </message>
    <message>
        <source>bf16 weights and gradients with an fp32 master copy and fp32 optimizer states (Megatron, DeepSpeed bf16, FSDP mixed precision)</source>
        <translation>bf16 权重和梯度，外加 fp32 主权重副本和 fp32 优化器状态（Megatron、DeepSpeed bf16、FSDP 混合精度）</translation>
    </message>
    <message>
        <source>Pure bf16: weights, gradients and optimizer states all in bf16, no master copy</source>
        <translation>纯 bf16：权重、梯度和优化器状态全部为 bf16，没有主权重副本</translation>
    </message>
    <message>
        <source>FP8 GEMMs (Transformer Engine): 16-bit weights plus fp8 copies of the GEMM weights, fp32 master and states</source>
        <translation>FP8 GEMM（Transformer Engine）：16 位权重加 GEMM 权重的 fp8 副本，fp32 主权重和状态</translation>
    </message>
    <message>
        <source>Plain SGD: no state</source>
        <translation>普通 SGD：无状态</translation>
    </message>
    <message>
        <source>SGD with momentum: one state per weight</source>
        <translation>带动量的 SGD：每个权重一个状态</translation>
    </message>
    <message>
        <source>Adam: two states per weight (exp_avg, exp_avg_sq)</source>
        <translation>Adam：每个权重两个状态（exp_avg、exp_avg_sq）</translation>
    </message>
    <message>
        <source>AdamW: two states per weight (exp_avg, exp_avg_sq)</source>
        <translation>AdamW：每个权重两个状态（exp_avg、exp_avg_sq）</translation>
    </message>
    <message>
        <source>bitsandbytes 8-bit AdamW: two 1-byte states per weight plus block-wise scales</source>
        <translation>bitsandbytes 8-bit AdamW：每个权重两个 1 字节状态，外加分块缩放因子</translation>
    </message>
    <message>
        <source>bitsandbytes paged AdamW: the states in unified memory, paged out of the GPU under pressure</source>
        <translation>bitsandbytes 分页 AdamW：状态放在统一内存中，显存紧张时换页出 GPU</translation>
    </message>
    <message>
        <source>bitsandbytes paged 8-bit AdamW</source>
        <translation>bitsandbytes 分页 8-bit AdamW</translation>
    </message>
    <message>
        <source>Adafactor: a factored second moment (a row and a column per matrix)</source>
        <translation>Adafactor：分解的二阶矩（每个矩阵一行一列）</translation>
    </message>
    <message>
        <source>Lion: one momentum state per weight</source>
        <translation>Lion：每个权重一个动量状态</translation>
    </message>
    <message>
        <source>Muon: one momentum buffer per weight</source>
        <translation>Muon：每个权重一个动量缓冲区</translation>
    </message>
    <message>
        <source>Shampoo: preconditioner statistics per matrix block, 1 to 6 times the parameters</source>
        <translation>Shampoo：每个矩阵块的预条件器统计量，为参数量的 1 到 6 倍</translation>
    </message>
    <message>
        <source>Hugging Face models under Trainer, accelerate, TRL, PEFT or a plain loop</source>
        <translation>在 Trainer、accelerate、TRL、PEFT 或普通循环下训练的 Hugging Face 模型</translation>
    </message>
    <message>
        <source>A plain PyTorch training loop</source>
        <translation>普通的 PyTorch 训练循环</translation>
    </message>
    <message>
        <source>Lightning&apos;s LitGPT scripts (validation and generation phases)</source>
        <translation>Lightning 的 LitGPT 脚本（含验证和生成阶段）</translation>
    </message>
    <message>
        <source>torchtune recipes (chunked cross-entropy, optimizer in backward)</source>
        <translation>torchtune 配方（分块交叉熵，在反向传播中执行优化器）</translation>
    </message>
    <message>
        <source>torchtitan (FSDP2, float8)</source>
        <translation>torchtitan（FSDP2、float8）</translation>
    </message>
    <message>
        <source>Megatron-LM / Megatron-Core (main_grad buffers, distributed optimizer)</source>
        <translation>Megatron-LM / Megatron-Core（main_grad 缓冲区，分布式优化器）</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO engine (communication buckets)</source>
        <translation>DeepSpeed ZeRO 引擎（通信桶）</translation>
    </message>
    <message>
        <source>Unsloth (its fused kernels and loss, 16-bit frozen base, checkpoints offloaded to the host)</source>
        <translation>Unsloth（自带融合算子和损失，16 位冻结基座，检查点卸载到主机内存）</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Training (a full step) or inference (forward only)</source>
        <translation>训练（完整的训练步）或推理（只有前向）</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>How weights, gradients, optimizer states and activations are stored; each choice&apos;s tooltip says how</source>
        <translation>权重、梯度、优化器状态和激活值的存储方式；各选项的提示说明具体做法</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>What the optimizer keeps per trainable weight; each choice&apos;s tooltip says what</source>
        <translation>优化器为每个可训练权重保存的内容；各选项的提示说明具体内容</translation>
    </message>
    <message>
        <source>Framework</source>
        <translation>框架</translation>
    </message>
    <message>
        <source>framework</source>
        <translation>框架</translation>
    </message>
    <message>
        <source>Whose model code and engine run the step: it decides details such as fp32 logits, chunked cross-entropy, gradient buffers and bucket sizes</source>
        <translation>由谁的模型代码和引擎执行训练步：它决定 fp32 logits、分块交叉熵、梯度缓冲区和桶大小等细节</translation>
    </message>
    <message>
        <source>Applies to training only (the mode is inference)</source>
        <translation>仅适用于训练（当前模式为推理）</translation>
    </message>
    <message>
        <source>What the precision and optimizer imply: fp32 (bf16 under pure bf16)</source>
        <translation>由精度和优化器决定：fp32（纯 bf16 时为 bf16）</translation>
    </message>
    <message>
        <source>bf16 moments: Megatron&apos;s precision-aware optimizer (--exp-avg-dtype bf16), DeepSpeed&apos;s bf16_optimizer_states</source>
        <translation>bf16 动量：Megatron 的精度感知优化器（--exp-avg-dtype bf16）、DeepSpeed 的 bf16_optimizer_states</translation>
    </message>
    <message>
        <source>fp16 moments (Megatron&apos;s precision-aware optimizer)</source>
        <translation>fp16 动量（Megatron 的精度感知优化器）</translation>
    </message>
    <message>
        <source>fp8 moments: Megatron (one scale per tensor) or torchao&apos;s AdamWFp8 (a scale per 256 values)</source>
        <translation>fp8 动量：Megatron（每个张量一个缩放因子）或 torchao 的 AdamWFp8（每 256 个值一个缩放因子）</translation>
    </message>
    <message>
        <source>8-bit moments, torchao&apos;s AdamW8bit (a scale per 256 values)</source>
        <translation>8 位动量，torchao 的 AdamW8bit（每 256 个值一个缩放因子）</translation>
    </message>
    <message>
        <source>4-bit moments, torchao&apos;s AdamW4bit (a scale per 128 values)</source>
        <translation>4 位动量，torchao 的 AdamW4bit（每 128 个值一个缩放因子）</translation>
    </message>
    <message>
        <source>What the precision implies: an fp32 copy under mixed precision</source>
        <translation>由精度决定：混合精度时保留一份 fp32 副本</translation>
    </message>
    <message>
        <source>fp16 master weights (Megatron --main-params-dtype fp16)</source>
        <translation>fp16 主权重（Megatron --main-params-dtype fp16）</translation>
    </message>
    <message>
        <source>bf16 master weights (DeepSpeed bf16_master_weights_and_grads)</source>
        <translation>bf16 主权重（DeepSpeed bf16_master_weights_and_grads）</translation>
    </message>
    <message>
        <source>No master copy: the optimizer steps the 16-bit weights</source>
        <translation>无主权重副本：优化器直接更新 16 位权重</translation>
    </message>
    <message>
        <source>What the precision and framework imply</source>
        <translation>由精度和框架决定</translation>
    </message>
    <message>
        <source>bf16 gradients (Megatron --main-grads-dtype bf16, DeepSpeed bf16_master_weights_and_grads)</source>
        <translation>bf16 梯度（Megatron --main-grads-dtype bf16、DeepSpeed bf16_master_weights_and_grads）</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>optimizer states dtype</source>
        <translation>优化器状态数据类型</translation>
    </message>
    <message>
        <source>The dtype of the optimizer&apos;s moments (exp_avg and exp_avg_sq)</source>
        <translation>优化器动量（exp_avg 与 exp_avg_sq）的数据类型</translation>
    </message>
    <message>
        <source>Master weights</source>
        <translation>主权重</translation>
    </message>
    <message>
        <source>master weights dtype</source>
        <translation>主权重数据类型</translation>
    </message>
    <message>
        <source>The dtype of the optimizer&apos;s copy of the weights</source>
        <translation>优化器所持权重副本的数据类型</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>gradients dtype</source>
        <translation>梯度数据类型</translation>
    </message>
    <message>
        <source>The dtype the gradients are kept in for the optimizer</source>
        <translation>供优化器使用的梯度所保存的数据类型</translation>
    </message>
    <message>
        <source>fp32 moments, as AdamW keeps them by default</source>
        <translation>fp32 动量（AdamW 的默认方式）</translation>
    </message>
    <message>
        <source>An fp32 copy of the weights for the optimizer&apos;s step</source>
        <translation>供优化器更新使用的一份 fp32 权重副本</translation>
    </message>
    <message>
        <source>fp32 gradients (Megatron&apos;s main_grad buffer, FSDP&apos;s fp32 shards)</source>
        <translation>fp32 梯度（Megatron 的 main_grad 缓冲区、FSDP 的 fp32 分片）</translation>
    </message>
</context>
<context>
    <name>vramplan::ui::WorkedExample</name>
    <message>
        <source>the catalog has no %1 or %2</source>
        <translation>目录中没有 %1 或 %2</translation>
    </message>
    <message>
        <source>the preset has no parameters</source>
        <translation>该预设没有参数</translation>
    </message>
    <message>
        <source>The worked example could not be computed: %1</source>
        <translation>无法计算示例：%1</translation>
    </message>
    <message>
        <source>%1 has %2 parameters (%3 exactly, counted tensor by tensor). Fully fine-tuned with bf16 mixed precision and AdamW, the estimator holds for each parameter:</source>
        <translation>%1 有 %2 个参数（精确为 %3，逐个张量统计）。在 bf16 混合精度和 AdamW 下全参数微调时，估算器为每个参数保存：</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>bytes per parameter, one GPU</source>
        <translation>每参数字节数（单 GPU）</translation>
    </message>
    <message>
        <source>one GPU (GiB = 2&lt;sup&gt;30&lt;/sup&gt; bytes)</source>
        <translation>单 GPU（GiB = 2&lt;sup&gt;30&lt;/sup&gt; 字节）</translation>
    </message>
    <message>
        <source>bytes per parameter on each GPU, ZeRO-3 over %1</source>
        <translation>每张 GPU 的每参数字节数（ZeRO-3，%1 张 GPU）</translation>
    </message>
    <message>
        <source>each GPU, ZeRO-3 over %1</source>
        <translation>每张 GPU（ZeRO-3，%1 张 GPU）</translation>
    </message>
    <message>
        <source>weights (used by forward and backward)</source>
        <translation>权重（前向和反向都要用）</translation>
    </message>
    <message>
        <source>gradients (from backward to the optimizer step)</source>
        <translation>梯度（从反向传播到优化器步）</translation>
    </message>
    <message>
        <source>AdamW states: first and second moment in fp32</source>
        <translation>AdamW 状态：fp32 的一阶矩和二阶矩</translation>
    </message>
    <message>
        <source>fp32 master weights (the optimizer updates these)</source>
        <translation>fp32 主权重（优化器更新的是它们）</translation>
    </message>
    <message>
        <source>model states</source>
        <translation>模型状态</translation>
    </message>
    <message>
        <source>it does not fit, whatever the batch</source>
        <translation>无论批次多大都放不下</translation>
    </message>
    <message>
        <source>it does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>it fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>That is the rule of %1 bytes per parameter for mixed-precision Adam (Rajbhandari et al. 2020, ZeRO §3): %2 of model states before a single activation. On one %3 at micro-batch %4 and %5 tokens the whole estimate peaks at &lt;b&gt;%6&lt;/b&gt; (%7), %8 of it activations, against %9 of memory: %10.</source>
        <translation>这就是混合精度 Adam 每参数 %1 字节的规则（Rajbhandari 等，2020，ZeRO §3）：还没有任何激活值，模型状态就已占 %2。在一张 %3 上、微批次 %4、%5 个 token 时，整个估算的峰值为 &lt;b&gt;%6&lt;/b&gt;（%7），其中激活值 %8，而显存为 %9：%10。</translation>
    </message>
    <message>
        <source>In the first columns the weights and gradients are bf16 (2 bytes) and the optimizer keeps its own fp32 copy of the weights beside the two fp32 moments. ZeRO-3 (FSDP&apos;s full sharding) over %1 GPUs gives each GPU 1/%1 of every row (the last columns): %2 of model states per GPU, and a device peak of %3 with the layers gathered for compute and the communication buffers. Where a row moves between the columns, the framework does it: FSDP as transformers runs it (through accelerate) keeps its shards in fp32 and steps them directly, so the shards are the master weights.</source>
        <translation>前几列中，权重和梯度为 bf16（2 字节），优化器在两个 fp32 矩之外还保存一份自己的 fp32 权重副本。ZeRO-3（FSDP 的完全分片）在 %1 张 GPU 上让每张 GPU 只保存每一行的 1/%1（最后几列）：每张 GPU 的模型状态为 %2，加上为计算而聚合的层和通信缓冲区，设备峰值为 %3。某一行在两组列之间发生变化，是框架的做法所致：transformers（通过 accelerate）运行的 FSDP 把分片保存为 fp32 并直接对其执行优化器步，因此分片本身就是主权重。</translation>
    </message>
    <message>
        <source>LoRA freezes the base: it stays in bf16 (%1 bytes per parameter, %2), with no gradients or optimizer states; only the %3 adapter parameters train. QLoRA stores the frozen linear layers in 4-bit NF4: the base takes %4 bytes per parameter, %5.</source>
        <translation>LoRA 冻结基座：基座保持 bf16（每参数 %1 字节，%2），没有梯度和优化器状态；只训练 %3 个适配器参数。QLoRA 把冻结的线性层存为 4-bit NF4：基座每参数 %4 字节，共 %5。</translation>
    </message>
</context>
</TS>
