//! Seed 003's questions that the lab answers with numbers: each with the grid and plan that
//! demonstrate it, the figure its answer cites, and the answer written from the plan's live
//! report (and, where the answer compares, the core's report of one other plan). No views.

use parallel_core::{
    evaluate, stages_imbalance, stages_range, Accounting, Bytes, Dim, Plan, PlanConfig, Recompute,
    Report, Schedule,
};

use crate::format;
use crate::i18n::Lang;
use crate::text::Text;

/// One question.
#[derive(Clone, Copy)]
pub struct Question {
    /// Its id (`question-<id>`).
    pub id: &'static str,
    /// The question as students ask it.
    pub ask: Text,
    /// 8 or 64: the grid its demonstration uses.
    pub grid: u32,
    /// The demonstration plan.
    pub plan: fn() -> PlanConfig,
    /// The test id of the figure on screen the answer cites.
    pub cites: &'static str,
    /// The answer, from the demonstration's plan and live report.
    pub answer: fn(Lang, &Plan, &Report) -> String,
}

/// The core's report of `config` (a plan the answer compares with), or the reason it fails.
fn other(config: PlanConfig) -> Option<Report> {
    evaluate(&config).ok()
}

fn bytes_of(report: Option<&Report>, pick: fn(&Report) -> Bytes) -> String {
    report.map_or_else(|| "—".to_string(), |r| format::bytes(pick(r)))
}

fn traffic_of(report: &Report, dim: Dim) -> String {
    report
        .comm
        .iter()
        .find(|t| t.dim == dim)
        .map_or_else(|| "0".to_string(), |t| format::bytes(t.bytes))
}

mod text {
    use crate::text::Text;

    pub const DP_ASK: Text = Text {
        zh: "数据并行能减少单卡显存吗？",
        en: "Does data parallelism reduce the memory of one card?",
    };
    pub const DP_ANSWER: Text = Text {
        zh: "不能。DP 8、ZeRO-0 时每卡模型状态是 {states}：每张卡都存一整份权重、梯度和 Adam 状态，和单卡训练一样。DP 换来的是吞吐；要省显存得靠切分，同样 8 张卡换成 ZeRO-3 就降到 {zero3}。",
        en: "No. With DP 8 and ZeRO-0 each card holds {states} of model states: a whole copy of weights, gradients and Adam states, as on a single card. DP buys throughput; memory needs sharding: the same 8 cards with ZeRO-3 hold {zero3}.",
    };
    pub const TP_ASK: Text = Text {
        zh: "张量并行怎样切权重？TP 8 时每卡还剩多少？",
        en: "How does tensor parallelism split the weights? What is left per card at TP 8?",
    };
    pub const TP_ANSWER: Text = Text {
        zh: "TP 把每层的矩阵按列、按行切成 8 份，每卡只存 1/8：模型状态从单卡的 {one} 变成 {states}。代价是每层都要 all-reduce 激活，每卡每步 {tp}，只能放在 NVLink 里。",
        en: "TP cuts every layer's matrices by columns and rows into 8 pieces and each card keeps 1/8: model states go from {one} on one card to {states}. The price is an all-reduce of activations in every layer, {tp} per card per step, which only NVLink carries.",
    };
    pub const PP_ASK: Text = Text {
        zh: "流水线并行为什么能省显存？它切的是什么？",
        en: "Why does pipeline parallelism save memory? What does it split?",
    };
    pub const PP_ANSWER: Text = Text {
        zh: "PP 切的是层数：8 段流水线每段 L/8 层，模型状态是 {states}，和 TP 8 一样落在 1/8 上。但它只在切点传激活：每卡每步 {pp}，而 TP 8 要传 {tp}。",
        en: "PP splits the depth: 8 stages of L/8 layers each, model states {states}, the same 1/8 as TP 8. But it only passes activations at the cuts: {pp} per card per step, where TP 8 sends {tp}.",
    };
    pub const SCHEDULE_ASK: Text = Text {
        zh: "1F1B 调度比 GPipe 省显存在哪里？",
        en: "Where does the 1F1B schedule save memory over GPipe?",
    };
    pub const SCHEDULE_ANSWER: Text = Text {
        zh: "看激活：1F1B 下第一段最多同时存 min(m, p) = {in_flight} 个 micro-batch 的激活，是 {activations}；换成 GPipe 要存全部 m = {m} 个，是 {gpipe}。气泡两者一样，都是 {bubble}。",
        en: "Look at activations: under 1F1B the first stage keeps at most min(m, p) = {in_flight} micro-batches, {activations}; GPipe keeps all m = {m}, {gpipe}. The bubble is the same, {bubble}.",
    };
    pub const SP_ASK: Text = Text {
        zh: "序列并行主要省哪部分显存？和谁一起用？",
        en: "Which memory does sequence parallelism save, and with what is it used?",
    };
    pub const SP_ANSWER: Text = Text {
        zh: "省的是激活。本页把 TP 与序列并行一起算：LayerNorm、Dropout 这些按序列切开，每层激活整体除以 t。TP 8 时激活是 {activations}，TP 1 时是 {one}。",
        en: "Activations. The lab counts TP together with sequence parallelism: LayerNorm and dropout are split along the sequence too, so every layer's activations divide by t. At TP 8 activations are {activations}; at TP 1 they are {one}.",
    };
    pub const STAGES_ASK: Text = Text {
        zh: "用 PP 时各卡的显存一样吗？",
        en: "With PP, does every card hold the same memory?",
    };
    pub const STAGES_ANSWER: Text = Text {
        zh: "不一样。按段计时最忙的是第 {stage} 段，合计 {total}；最轻的段 {least}，最重 ÷ 最轻 = {ratio}。第一段存最多在途的 micro-batch，最后一段多了输出头和 logits；调整办法是给首尾段少分几层。",
        en: "No. Stage by stage the busiest is stage {stage} with {total}; the lightest holds {least}, a ratio of {ratio}. The first stage keeps the most micro-batches in flight and the last adds the output head and the logits; the fix is fewer layers on the end stages.",
    };
    pub const TIGHT_ASK: Text = Text {
        zh: "为什么用了 TP 和 PP，单卡显存还是紧？",
        en: "Why is a card still tight after TP and PP?",
    };
    pub const TIGHT_ANSWER: Text = Text {
        zh: "因为激活随序列变长：32K 序列、选择性重计算下，TP 8 × PP 2 每卡模型状态只有 {states}，激活却有 {activations}，合计 {total}。TP、PP 切开了参数，激活还要靠重计算或 CP。",
        en: "Because activations grow with the sequence: at 32K tokens with selective recompute, TP 8 × PP 2 leaves only {states} of model states per card, but {activations} of activations, {total} in all. TP and PP split the parameters; activations need recomputation or CP.",
    };
    pub const MICRO_ASK: Text = Text {
        zh: "micro-batch 对显存有什么影响？",
        en: "How do micro-batches affect memory?",
    };
    pub const MICRO_ANSWER: Text = Text {
        zh: "1F1B 下 micro-batch 的个数 m 不改变激活：m = 32 时仍是 {activations}，气泡却降到 {bubble}。每个 micro-batch 的序列数 b 才放大激活：b = 2 时是 {b2}。",
        en: "Under 1F1B the number of micro-batches m does not change activations: at m = 32 they are still {activations}, while the bubble falls to {bubble}. The sequences per micro-batch b do scale them: {b2} at b = 2.",
    };
    pub const ZERO3_ASK: Text = Text {
        zh: "用了 ZeRO-3 还需要 TP 吗？",
        en: "With ZeRO-3, is TP still needed?",
    };
    pub const ZERO3_ANSWER: Text = Text {
        zh: "ZeRO-3 只切模型状态，不切激活。64 卡 TP 8 × DP 8 + ZeRO-3 时每卡激活 {activations}；只用 ZeRO-3（DP 64）模型状态更小，但激活是 {zero3_activations}，每卡每步还要传 {zero3_dp}。TP 切激活，ZeRO 切状态，两者互补。",
        en: "ZeRO-3 shards model states, not activations. On 64 cards TP 8 × DP 8 with ZeRO-3 leaves {activations} of activations per card; ZeRO-3 alone (DP 64) has smaller states but {zero3_activations} of activations and sends {zero3_dp} per card per step. TP splits activations, ZeRO splits states: they complement each other.",
    };
    pub const BUBBLE_ASK: Text = Text {
        zh: "流水线气泡对显存有影响吗？",
        en: "Does the pipeline bubble affect memory?",
    };
    pub const BUBBLE_ANSWER: Text = Text {
        zh: "气泡是空等的时间，不占显存：PP 8、m = 8 时气泡是 {bubble}，激活 {activations}。把 m 加到 32，气泡降到 {bubble32}，1F1B 下激活不变（{activations32}）。",
        en: "The bubble is idle time, not memory: at PP 8 and m = 8 the bubble is {bubble} with {activations} of activations. Raise m to 32 and the bubble falls to {bubble32} while 1F1B keeps activations at {activations32}.",
    };
    pub const CHOOSE_ASK: Text = Text {
        zh: "给定模型和硬件，怎样选并行度？",
        en: "How do you choose the parallel degrees for a model and a cluster?",
    };
    pub const CHOOSE_ANSWER: Text = Text {
        zh: "先让它放得下，再让它快：TP 放在节点内（≤ 8），PP 跨节点，DP 吃掉剩下的卡，ZeRO 和重计算补显存。这套 TP {tp} × PP {pp} × DP {dp}、ZeRO-{zero} 合计 {total}，估算每步 {step}；下面的搜索把所有方案排了序。",
        en: "First make it fit, then make it fast: TP inside a node (≤ 8), PP across nodes, DP takes the remaining cards, ZeRO and recomputation make up memory. This plan, TP {tp} × PP {pp} × DP {dp} with ZeRO-{zero}, holds {total} and takes an estimated {step} a step; the search below ranks every plan.",
    };

    #[cfg(test)]
    pub const ALL: &[&Text] = &[
        &DP_ASK,
        &DP_ANSWER,
        &TP_ASK,
        &TP_ANSWER,
        &PP_ASK,
        &PP_ANSWER,
        &SCHEDULE_ASK,
        &SCHEDULE_ANSWER,
        &SP_ASK,
        &SP_ANSWER,
        &STAGES_ASK,
        &STAGES_ANSWER,
        &TIGHT_ASK,
        &TIGHT_ANSWER,
        &MICRO_ASK,
        &MICRO_ANSWER,
        &ZERO3_ASK,
        &ZERO3_ANSWER,
        &BUBBLE_ASK,
        &BUBBLE_ANSWER,
        &CHOOSE_ASK,
        &CHOOSE_ANSWER,
    ];
}

/// Questions the lab cannot compute, one line each.
pub const BEYOND: [Text; 2] = [
    Text {
        zh: "推理时的显存（KV cache、没有梯度和优化器状态）：本页只算训练，不回答。",
        en: "Memory at inference (KV cache, no gradients or optimizer states): this lab counts training only.",
    },
    Text {
        zh: "显存碎片、通信缓冲区和框架开销：本页不计，真实占用会比这里高一些。",
        en: "Fragmentation, communication buffers and framework overhead: not counted here, so real use runs somewhat higher.",
    },
];

fn eight(zero: u8, tp: u32, pp: u32, recompute: Recompute) -> PlanConfig {
    PlanConfig {
        tp,
        pp,
        zero,
        recompute,
        ..PlanConfig::default()
    }
}

/// Every question, in the order seed 003 asks them.
pub fn questions() -> [Question; 11] {
    [
        Question {
            id: "dp-memory",
            ask: text::DP_ASK,
            grid: 8,
            plan: || eight(0, 1, 1, Recompute::Full),
            cites: "mem-states",
            answer: |lang, plan, r| {
                let zero3 = other(PlanConfig {
                    zero: 3,
                    ..plan.config().clone()
                });
                text::DP_ANSWER.fill(
                    lang,
                    &[
                        ("states", &r.memory.model_states),
                        (
                            "zero3",
                            &bytes_of(zero3.as_ref(), |r| r.memory.model_states),
                        ),
                    ],
                )
            },
        },
        Question {
            id: "tp-weights",
            ask: text::TP_ASK,
            grid: 8,
            plan: || eight(0, 8, 1, Recompute::Selective),
            cites: "mem-states",
            answer: |lang, plan, r| {
                let one = other(PlanConfig {
                    tp: 1,
                    gpus: 1,
                    ..plan.config().clone()
                });
                text::TP_ANSWER.fill(
                    lang,
                    &[
                        ("one", &bytes_of(one.as_ref(), |r| r.memory.model_states)),
                        ("states", &r.memory.model_states),
                        ("tp", &traffic_of(r, Dim::Tp)),
                    ],
                )
            },
        },
        Question {
            id: "pp-splits",
            ask: text::PP_ASK,
            grid: 8,
            plan: || eight(0, 1, 8, Recompute::Full),
            cites: "mem-states",
            answer: |lang, plan, r| {
                let tp = other(PlanConfig {
                    tp: 8,
                    pp: 1,
                    ..plan.config().clone()
                });
                text::PP_ANSWER.fill(
                    lang,
                    &[
                        ("states", &r.memory.model_states),
                        ("pp", &traffic_of(r, Dim::Pp)),
                        (
                            "tp",
                            &tp.as_ref()
                                .map_or_else(|| "—".to_string(), |t| traffic_of(t, Dim::Tp)),
                        ),
                    ],
                )
            },
        },
        Question {
            id: "1f1b-gpipe",
            ask: text::SCHEDULE_ASK,
            grid: 8,
            plan: || PlanConfig {
                micro_batches: 16,
                ..eight(0, 2, 4, Recompute::Full)
            },
            cites: "mem-activations",
            answer: |lang, plan, r| {
                let gpipe = other(PlanConfig {
                    schedule: Schedule::Gpipe,
                    ..plan.config().clone()
                });
                text::SCHEDULE_ANSWER.fill(
                    lang,
                    &[
                        ("in_flight", &plan.micro_batches_in_flight()),
                        ("activations", &r.memory.activations),
                        ("m", &plan.micro_batches()),
                        ("gpipe", &bytes_of(gpipe.as_ref(), |r| r.memory.activations)),
                        ("bubble", &format::percent(r.bubble.ratio)),
                    ],
                )
            },
        },
        Question {
            id: "sequence-parallel",
            ask: text::SP_ASK,
            grid: 8,
            plan: || eight(0, 8, 1, Recompute::Selective),
            cites: "mem-activations",
            answer: |lang, plan, r| {
                let one = other(PlanConfig {
                    tp: 1,
                    ..plan.config().clone()
                });
                text::SP_ANSWER.fill(
                    lang,
                    &[
                        ("activations", &r.memory.activations),
                        ("one", &bytes_of(one.as_ref(), |r| r.memory.activations)),
                    ],
                )
            },
        },
        Question {
            id: "pp-stages",
            ask: text::STAGES_ASK,
            grid: 64,
            plan: || PlanConfig {
                accounting: Accounting::Stages,
                ..PlanConfig::lesson_64_gpus()
            },
            cites: "mem-total",
            answer: |lang, _plan, r| {
                let least = stages_range(&r.by_stage).map_or(Bytes::ZERO, |(least, _)| least);
                let ratio = format!("{:.2}", stages_imbalance(&r.by_stage));
                text::STAGES_ANSWER.fill(
                    lang,
                    &[
                        ("stage", &r.busiest_stage.unwrap_or(0)),
                        ("total", &r.memory.total),
                        ("least", &least),
                        ("ratio", &ratio),
                    ],
                )
            },
        },
        Question {
            id: "still-tight",
            ask: text::TIGHT_ASK,
            grid: 64,
            plan: || PlanConfig {
                pp: 2,
                seq_len: 32_768,
                recompute: Recompute::Selective,
                ..PlanConfig::lesson_64_gpus()
            },
            cites: "mem-activations",
            answer: |lang, _plan, r| {
                text::TIGHT_ANSWER.fill(
                    lang,
                    &[
                        ("states", &r.memory.model_states),
                        ("activations", &r.memory.activations),
                        ("total", &r.memory.total),
                    ],
                )
            },
        },
        Question {
            id: "micro-batches",
            ask: text::MICRO_ASK,
            grid: 64,
            plan: || PlanConfig {
                micro_batches: 32,
                ..PlanConfig::lesson_64_gpus()
            },
            cites: "mem-activations",
            answer: |lang, plan, r| {
                let b2 = other(PlanConfig {
                    micro_batch_size: 2,
                    ..plan.config().clone()
                });
                text::MICRO_ANSWER.fill(
                    lang,
                    &[
                        ("activations", &r.memory.activations),
                        ("bubble", &format::percent(r.bubble.ratio)),
                        ("b2", &bytes_of(b2.as_ref(), |r| r.memory.activations)),
                    ],
                )
            },
        },
        Question {
            id: "zero3-tp",
            ask: text::ZERO3_ASK,
            grid: 64,
            plan: || PlanConfig {
                pp: 1,
                zero: 3,
                ..PlanConfig::lesson_64_gpus()
            },
            cites: "mem-activations",
            answer: |lang, plan, r| {
                let alone = other(PlanConfig {
                    tp: 1,
                    ..plan.config().clone()
                });
                text::ZERO3_ANSWER.fill(
                    lang,
                    &[
                        ("activations", &r.memory.activations),
                        (
                            "zero3_activations",
                            &bytes_of(alone.as_ref(), |r| r.memory.activations),
                        ),
                        (
                            "zero3_dp",
                            &alone
                                .as_ref()
                                .map_or_else(|| "—".to_string(), |a| traffic_of(a, Dim::Dp)),
                        ),
                    ],
                )
            },
        },
        Question {
            id: "bubble-memory",
            ask: text::BUBBLE_ASK,
            grid: 8,
            plan: || eight(0, 1, 8, Recompute::Full),
            cites: "bubble",
            answer: |lang, plan, r| {
                let more = other(PlanConfig {
                    micro_batches: 32,
                    ..plan.config().clone()
                });
                text::BUBBLE_ANSWER.fill(
                    lang,
                    &[
                        ("bubble", &format::percent(r.bubble.ratio)),
                        ("activations", &r.memory.activations),
                        (
                            "bubble32",
                            &more.as_ref().map_or_else(
                                || "—".to_string(),
                                |m| format::percent(m.bubble.ratio),
                            ),
                        ),
                        (
                            "activations32",
                            &bytes_of(more.as_ref(), |r| r.memory.activations),
                        ),
                    ],
                )
            },
        },
        Question {
            id: "choose-degrees",
            ask: text::CHOOSE_ASK,
            grid: 64,
            plan: || PlanConfig {
                pp: 2,
                zero: 1,
                ..PlanConfig::lesson_64_gpus()
            },
            cites: "mem-total",
            answer: |lang, plan, r| {
                let d = plan.degrees();
                text::CHOOSE_ANSWER.fill(
                    lang,
                    &[
                        ("tp", &d.tp),
                        ("pp", &d.pp),
                        ("dp", &d.dp),
                        ("zero", &plan.zero()),
                        ("total", &r.memory.total),
                        ("step", &format::seconds(r.estimate.step_s)),
                    ],
                )
            },
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_question_is_answered_from_its_plan_in_both_languages() {
        crate::text::testing::assert_all_used(text::ALL, || {
            for q in questions() {
                let plan = Plan::new(&(q.plan)()).unwrap();
                assert_eq!(plan.gpus(), q.grid, "{}", q.id);
                let report = plan.report();
                for lang in [Lang::Zh, Lang::En] {
                    q.ask.get(lang);
                    let answer = (q.answer)(lang, &plan, &report);
                    assert!(!answer.contains('—'), "{}: {answer}", q.id);
                }
            }
        });
        let q = questions()[0];
        let plan = Plan::new(&(q.plan)()).unwrap();
        let answer = (q.answer)(Lang::En, &plan, &plan.report());
        assert!(
            answer.contains("444.5 GB") && answer.contains("55.6 GB"),
            "{answer}"
        );
        for t in BEYOND {
            assert!(!t.zh.is_empty() && !t.en.is_empty());
        }
    }
}
