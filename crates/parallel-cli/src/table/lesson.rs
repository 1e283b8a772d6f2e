//! The lesson's tables, built from the configs of `parallel_core::lesson`: the 8-GPU and
//! 64-GPU plans, the published Llama 3 405B runs, DeepSeek-V3's plan and the starting
//! recipes. Every figure is computed by the core; only TFLOPs and MFU are quoted.

use parallel_core::lesson::{
    deepseek_v3_plan, eight_gpu_plans, llama3_runs, recipes, sixty_four_gpu_plans, LessonPlan,
};
use parallel_core::{Dim, Plan, PlanError};

use super::plans::{figure_cells, figure_columns, legend, plan_table, PlanRow};
use super::{column, dim_columns, Row, RowData, Table};
use crate::args::{Lang, LessonTable};
use crate::cells::{thousands, NOT_APPLICABLE};
use crate::error::CliError;

/// Builds one of the lesson's tables.
pub fn table(id: LessonTable, lang: Lang) -> Result<Table, CliError> {
    let located =
        |e: PlanError| CliError::invalid(&format!("{}.{}", id.id(), e.field()), e.reason());
    match id {
        LessonTable::EightGpus => plan_table(
            id.id(),
            Some(
                lang.pick(
                    "8 卡:一台 8 × 80 GB 的机器 · Qwen3.8-27B · s = 4,096 · m = 8",
                    "8 GPUs: one node of 8 × 80 GB, Qwen3.8-27B, s = 4,096, m = 8",
                )
                .to_string(),
            ),
            &lesson_rows(eight_gpu_plans(), lang),
            lang,
        ),
        LessonTable::SixtyFourGpus => plan_table(
            id.id(),
            Some(
                lang.pick(
                    "64 卡:8 台机器 × 8 卡,TP 不跨机 · Qwen3.8-27B · s = 4,096",
                    "64 GPUs: 8 nodes of 8, TP inside a node, Qwen3.8-27B, s = 4,096",
                )
                .to_string(),
            ),
            &lesson_rows(sixty_four_gpu_plans(), lang),
            lang,
        ),
        LessonTable::Llama3 => llama3(lang).map_err(located),
        LessonTable::DeepseekV3 => deepseek(lang).map_err(located),
        LessonTable::Recipes => recipe_table(lang).map_err(located),
        LessonTable::Runs => super::runs::table(lang).map_err(located),
    }
}

fn lesson_rows(plans: Vec<LessonPlan>, lang: Lang) -> Vec<PlanRow> {
    plans
        .into_iter()
        .map(|p| PlanRow {
            id: Some(p.id),
            label: lang.pick(p.label_zh, p.label_en).to_string(),
            config: p.config,
        })
        .collect()
}

fn llama3(lang: Lang) -> Result<Table, PlanError> {
    let mut columns = vec![column("gpus", lang.pick("卡数", "GPUs"))];
    columns.extend(dim_columns(&[Dim::Tp, Dim::Cp, Dim::Pp, Dim::Dp]));
    columns.extend([
        column("seq_len", lang.pick("序列长度", "Sequence length")),
        column("batch_per_dp", lang.pick("每 DP 的 batch", "Batch per DP")),
        column(
            "tokens_per_step",
            lang.pick("每步 token(现算)", "Tokens per step (computed)"),
        ),
        column("tflops_per_gpu", lang.pick("TFLOPs/卡", "TFLOPs/GPU")),
        column("mfu", "BF16 MFU"),
    ]);
    let mut table = Table::new(
        "llama3",
        lang.pick(
            "Llama 3 405B 的公开配置(报告表 4);DP 与每步 token 为现算",
            "Llama 3 405B as published (its report, table 4); DP and tokens per step computed",
        ),
        columns,
    );
    table.notes.push(
        lang.pick(
            "4D 并行按 [TP, CP, PP, DP] 从内到外排,DP 是 FSDP。每步 token = DP × 每 DP 的 batch × 序列长度。TFLOPs 与 MFU 为公开数字。",
            "Ranks are ordered [TP, CP, PP, DP], innermost first; DP is FSDP. \
             Tokens per step = DP × batch per DP × sequence length. TFLOPs and MFU are the published figures.",
        )
        .to_string(),
    );
    for run in llama3_runs() {
        let plan = Plan::new(&run.config)?;
        let d = plan.degrees();
        let tokens = plan.tokens_per_step();
        let c = &run.config;
        table.rows.push(Row {
            cells: vec![
                thousands(f64::from(c.gpus)),
                d.tp.to_string(),
                d.cp.to_string(),
                d.pp.to_string(),
                d.dp.to_string(),
                thousands(f64::from(c.seq_len)),
                c.micro_batches.to_string(),
                thousands(tokens),
                run.tflops_per_gpu.to_string(),
                format!("{}%", run.mfu_percent),
            ],
            data: RowData::Llama3 {
                config: c.clone(),
                dp: d.dp,
                tokens_per_step: tokens,
                tflops_per_gpu: run.tflops_per_gpu,
                mfu_percent: run.mfu_percent,
                report: plan.report(),
            },
        });
    }
    Ok(table)
}

fn deepseek(lang: Lang) -> Result<Table, PlanError> {
    let config = deepseek_v3_plan();
    let plan = Plan::new(&config)?;
    let report = plan.report();
    let d = plan.degrees();
    let expert_dp = d.expert_dp;
    let mut columns = vec![
        column("plan", lang.pick("方案", "Plan")),
        column("gpus", lang.pick("卡数", "GPUs")),
    ];
    columns.extend(dim_columns(&[Dim::Tp, Dim::Pp, Dim::Ep, Dim::Dp]));
    columns.push(column("expert_dp", lang.pick("专家 DP", "Expert DP")));
    columns.extend(figure_columns(lang));
    let mut table = Table::new(
        "deepseek",
        lang.pick(
            "DeepSeek-V3:2,048 张卡,PP 16 × EP 64 × ZeRO-1 DP,不用 TP",
            "DeepSeek-V3 on 2,048 GPUs: PP 16 × EP 64 × ZeRO-1 DP, no TP",
        ),
        columns,
    );
    table.notes.push(legend(lang));
    table.notes.push(
        lang.pick(
            "DP = N/(TP·PP·CP) 复制稠密权重;专家 DP = N/(EP·PP) 张卡持有同一批专家。\
             序列长度与重计算取实验室默认值(s = 4,096、全量),m = 32 = 2·PP 是实验室的假设,不是 DeepSeek 公开的 batch。",
            "DP = N/(TP·PP·CP) holds the dense weights; expert DP = N/(EP·PP) cards hold the same experts. \
             Sequence length and recomputation are the lab's defaults (s = 4,096, full) and m = 32 = 2·PP is the lab's \
             assumption, not DeepSeek's published batch.",
        )
        .to_string(),
    );
    for warning in &report.warnings {
        table.notes.push(warning.to_string());
    }
    let mut cells = vec![
        "PP 16 × EP 64 × ZeRO-1 DP".to_string(),
        thousands(f64::from(plan.gpus())),
        d.tp.to_string(),
        d.pp.to_string(),
        d.ep.to_string(),
        d.dp.to_string(),
        expert_dp.map_or_else(|| NOT_APPLICABLE.to_string(), |n| n.to_string()),
    ];
    cells.extend(figure_cells(&plan, &report));
    table.rows.push(Row {
        cells,
        data: RowData::DeepseekV3 {
            config,
            dp: d.dp,
            expert_dp,
            report,
        },
    });
    Ok(table)
}

fn recipe_table(lang: Lang) -> Result<Table, PlanError> {
    let mut columns = vec![
        column("model", lang.pick("模型", "Model")),
        column("gpus", lang.pick("训练卡数", "GPUs")),
    ];
    columns.extend(dim_columns(&[Dim::Tp, Dim::Pp, Dim::Cp, Dim::Ep, Dim::Dp]));
    columns.extend([
        column("expert_dp", lang.pick("专家 DP", "Expert DP")),
        column(
            "gpus_per_engine",
            lang.pick("每个推理引擎卡数", "Cards per engine"),
        ),
        column("response_len", lang.pick("回复上限", "Response cap")),
        column("model_states", lang.pick("每卡模型状态", "Model states")),
        column("activations", lang.pick("激活", "Activations")),
        column("total", lang.pick("训练合计", "Training total")),
        column("rollout", lang.pick("推理每卡", "Rollout per card")),
        column("peak", lang.pick("同卡峰值", "Shared peak")),
    ]);
    let mut table = Table::new(
        "recipes",
        lang.pick("起步配方(每节点 8 卡)", "Starting recipes for 8-GPU nodes"),
        columns,
    );
    table.notes.push(
        lang.pick(
            "DP = N/(TP·PP·CP),专家 DP = N/(EP·PP)(稠密模型为 —)。只有实验室知道配置的模型(Qwen3.8-27B)\
             才算显存,口径是配方的:训练序列 = prompt 2,048 + 回复上限、ZeRO-1、CPU Adam、全量重计算、\
             log-prob 分块 1,024、m = 8;每轮 8 个 prompt × 8 次采样,推理引擎与训练同卡(峰值取两阶段中大者)。",
            "DP = N/(TP·PP·CP), expert DP = N/(EP·PP) (— for a dense model). Memory only where the lab \
             knows the model's config (Qwen3.8-27B), on the recipes' terms: training sequences of the \
             2,048-token prompt plus the response cap, ZeRO-1, CPU Adam, full recompute, log-prob chunks \
             of 1,024, m = 8; 8 prompts × 8 samples a round, the engines on the training cards (the peak \
             is the larger phase).",
        )
        .to_string(),
    );
    let does_not_divide = lang.pick("不能整除", "does not divide");
    for recipe in recipes() {
        let layout = recipe.layout();
        let expert_dp = layout.expert_dp.filter(|_| recipe.ep > 1);
        let count = |n: Option<u32>| n.map_or(does_not_divide.to_string(), |n| n.to_string());
        let report = recipe.plan().transpose()?.map(|plan| plan.report());
        let memory = report.as_ref().map(|r| r.memory);
        let rollout = report.as_ref().and_then(|r| r.rollout);
        let na = || NOT_APPLICABLE.to_string();
        let mark = |fits: bool| if fits { '✓' } else { '✗' };
        table.rows.push(Row {
            cells: vec![
                recipe.model.to_string(),
                thousands(f64::from(recipe.gpus)),
                recipe.tp.to_string(),
                recipe.pp.to_string(),
                recipe.cp.to_string(),
                recipe.ep.to_string(),
                count(layout.dp),
                if recipe.ep > 1 {
                    count(layout.expert_dp)
                } else {
                    na()
                },
                recipe.gpus_per_engine.to_string(),
                thousands(f64::from(recipe.response_len)),
                memory.map_or_else(na, |m| m.model_states.to_string()),
                memory.map_or_else(na, |m| m.activations.to_string()),
                memory.map_or_else(na, |m| crate::cells::total_with_fit(&m)),
                rollout.map_or_else(na, |r| format!("{} {}", r.total, mark(r.fits))),
                match (rollout, memory) {
                    (Some(r), Some(m)) => format!(
                        "{} {} ({})",
                        r.peak,
                        mark(r.peak <= m.capacity),
                        crate::cells::phase_name(lang, r.peak_phase)
                    ),
                    _ => na(),
                },
            ],
            data: RowData::Recipe {
                model: recipe.model,
                gpus: recipe.gpus,
                tp: recipe.tp,
                pp: recipe.pp,
                cp: recipe.cp,
                ep: recipe.ep,
                dp: layout.dp,
                expert_dp,
                gpus_per_engine: recipe.gpus_per_engine,
                response_len: recipe.response_len,
                report,
            },
        });
    }
    Ok(table)
}
