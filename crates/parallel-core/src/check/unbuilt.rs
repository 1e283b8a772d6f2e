//! What one GPU cannot build of a card's work, each with why the figures still compare.

use serde::{Deserialize, Serialize};

use crate::lang::Lang;
use crate::model::Mlp;
use crate::plan::Plan;

/// One part of a card's work that the measuring program does not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unbuilt {
    /// The embedding (first stage), the output head and the loss (last stage).
    EmbeddingAndHead,
    /// Every collective: TP's all-reduces, CP's ring, EP's all-to-all, PP's sends, DP's
    /// gradient reduction.
    Traffic,
    /// Sequence parallelism's split of the norms' and residuals' activations over t cards.
    SequenceParallel,
    /// ZeRO's sharding of the states over the data-parallel group.
    ZeroSharding,
    /// Linear-attention kernels (the lab counts their projections only).
    LinearAttention,
    /// Multi-head latent attention's low-rank projections.
    LatentAttention,
    /// A plain-MLP (GPT) model's LayerNorm and learned positions, built as RMSNorm and
    /// rotary embeddings.
    GptNormAndPositions,
}

impl Unbuilt {
    /// The parts a card of `plan` has that the program does not build, in a fixed order.
    pub fn of(plan: &Plan) -> Vec<Unbuilt> {
        let (m, d) = (plan.model(), plan.degrees());
        let mut parts = vec![Unbuilt::EmbeddingAndHead];
        if plan.gpus() > 1 {
            parts.push(Unbuilt::Traffic);
        }
        if d.tp > 1 {
            parts.push(Unbuilt::SequenceParallel);
        }
        if plan.zero() > 0 && d.dp * d.cp > 1 {
            parts.push(Unbuilt::ZeroSharding);
        }
        if m.full_attention_layers < m.layers {
            parts.push(Unbuilt::LinearAttention);
        }
        if m.mla.is_some() {
            parts.push(Unbuilt::LatentAttention);
        }
        if m.mlp == Mlp::Plain {
            parts.push(Unbuilt::GptNormAndPositions);
        }
        parts
    }

    /// What is left out and why the figures still compare, in `lang`.
    pub fn text(self, lang: Lang) -> &'static str {
        let (zh, en) = match self {
            Unbuilt::EmbeddingAndHead => (
                "嵌入层、输出头和损失不构建：只构建本阶段的 Transformer 层；实验室对照的也只是这些层。",
                "The embedding, the output head and the loss are not built: only the stage's \
                 transformer layers, and the lab's figures here are for those layers alone.",
            ),
            Unbuilt::Traffic => (
                "一张卡上没有通信：TP 的 all-reduce、CP 的环、EP 的 all-to-all、PP 的收发和 DP 的梯度归约都不运行；\
                 CP 的注意力按本卡的块对各块键的计算构建。",
                "One card sends nothing: TP's all-reduces, CP's ring, EP's all-to-all, PP's \
                 sends and DP's gradient reduction do not run; CP's attention is built as the \
                 card's chunk against each chunk of keys, its compute without the ring.",
            ),
            Unbuilt::SequenceParallel => (
                "序列并行不构建：本卡的 RMSNorm 与残差存整段 s/c 的激活，实验室按 t 张卡切分计。",
                "Sequence parallelism is not built: the card keeps its norms' and residuals' \
                 activations for all s/c tokens, where the lab splits them over t cards.",
            ),
            Unbuilt::ZeroSharding => (
                "ZeRO 的切分不构建：实测的是本卡各层完整的状态（每参数 2 + g + 12 字节），计划里这张卡只持有 1/D。",
                "ZeRO's sharding is not built: the states measured are the layers' whole \
                 states (2 + g + 12 bytes a parameter), of which the plan's card holds 1/D.",
            ),
            Unbuilt::LinearAttention => (
                "线性注意力层只构建投影与 MLP，不构建其内核；实验室也只计其投影。",
                "Linear-attention layers are built with their projections and MLP, without \
                 their kernel; the lab counts their projections only.",
            ),
            Unbuilt::LatentAttention => (
                "MLA 的低秩投影按实验室的宽度构建为普通多头投影。",
                "Multi-head latent attention's low-rank projections are built as plain \
                 multi-head projections of the widths the lab counts.",
            ),
            Unbuilt::GptNormAndPositions => (
                "GPT 的 LayerNorm 与可学习位置编码按 RMSNorm 与旋转位置编码构建：都是逐元素的访存内核，实验室也按同样的读写量计；MLP 按 GPT 的 up、GeLU、down 构建。",
                "GPT's LayerNorm and learned positions are built as RMSNorm and rotary \
                 embeddings: memory-bound kernels either way, counted by the lab with the same \
                 reads and writes; the MLP is built as GPT's up, GeLU and down.",
            ),
        };
        lang.pick(zh, en)
    }
}
