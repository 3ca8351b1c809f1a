// Exact parameter counts: the presets, the Hugging Face configs in tests/data/anchors/hf and
// tests/data/hf and more of their kin, each against the count published for the checkpoint.
// Covers core/model/model_spec.cpp, core/presets/model_presets.cpp and core/io/hf_config.cpp, and
// for the mixtures the active count (core/time/flops.cpp layer_matmul_params) and their Linear
// modules (core/model/linear_modules.cpp).
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/io/hf_config.h"
#include "core/model/limits.h"
#include "core/model/linear_modules.h"
#include "core/presets/model_presets.h"
#include "core/time/flops.h"
#include "test_data.h"

#include <nlohmann/json.hpp>

#include "test_main.h"

#include <cmath>

using namespace zp;

class TestModelSpec : public QObject {
    Q_OBJECT
private slots:
    // attention_pair_share: the query-key pairs a causal attention computes, averaged over the
    // layers, against a global layer's s(s+1)/2 (hand-computed from each config's window, chunk
    // and global-layer pattern).
    void attention_pair_share_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("seq");
        QTest::addColumn<double>("share");
        QTest::newRow("Gemma-3 27B, window 1024, 52 local of 62, 8192 tokens") << "gemma-3-27b" << 8192.0 << 0.3578517066102849;
        QTest::newRow("Gemma-3 1B, window 512, 22 local of 26, 32768 tokens") << "gemma-3-1b" << 32768.0 << 0.1800814838484778;
        QTest::newRow("gpt-oss-20b, window 128 on every other layer, 4096 tokens") << "gpt-oss-20b" << 4096.0 << 0.5307580241640225;
        QTest::newRow("Llama-4 Scout, chunks of 8192 on 36 of 48, 32768 tokens") << "llama-4-scout" << 32768.0 << 0.43751716561384235;
        QTest::newRow("Llama-4 Scout within one chunk: every layer whole") << "llama-4-scout" << 8192.0 << 1.0;
        QTest::newRow("Llama-3.1 8B, global everywhere") << "llama-3.1-8b" << 131072.0 << 1.0;
    }
    void attention_pair_share() {
        QFETCH(QString, model);
        QFETCH(double, seq);
        QFETCH(double, share);
        QVERIFY(std::abs(zp::attention_pair_share(model_preset(model.toStdString()).spec, seq) - share) < 1e-12);
    }

    // clang-format off
    void presets_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("params");
        // Sum of numel over the published checkpoints (Hugging Face model pages / safetensors index).
        QTest::newRow("openai-community/gpt2") << "gpt2" << qint64(124439808);
        QTest::newRow("openai-community/gpt2-xl") << "gpt2-xl" << qint64(1557611200);
        QTest::newRow("meta-llama/Llama-2-7b-hf") << "llama-2-7b" << qint64(6738415616);
        QTest::newRow("meta-llama/Llama-2-13b-hf") << "llama-2-13b" << qint64(13015864320);
        QTest::newRow("meta-llama/Llama-2-70b-hf") << "llama-2-70b" << qint64(68976648192);
        QTest::newRow("meta-llama/Meta-Llama-3-8B") << "llama-3-8b" << qint64(8030261248);
        QTest::newRow("meta-llama/Meta-Llama-3-70B") << "llama-3-70b" << qint64(70553706496);
        QTest::newRow("mistralai/Mistral-7B-v0.1") << "mistral-7b" << qint64(7241732096);
        QTest::newRow("mistralai/Mixtral-8x7B-v0.1") << "mixtral-8x7b" << qint64(46702792704);
        QTest::newRow("Qwen/Qwen2-0.5B") << "qwen2-0.5b" << qint64(494032768);
        QTest::newRow("Qwen/Qwen2-7B") << "qwen2-7b" << qint64(7615616512);
        QTest::newRow("bigscience/bloom") << "bloom-176b" << qint64(176247271424);
        QTest::newRow("t5-3b (DeepSpeed memory.rst)") << "t5-3b" << qint64(2851598336);
        // Models people fine-tune (issue 15, item 7): each count computed by hand from the model's
        // config.json in tests/hand_calculations.py ("model presets"), module by module as
        // transformers builds them. Where a checkpoint's exact count is known, the script asserts
        // it: Llama-3.1 8B/70B/405B, Qwen2.5-7B, Gemma-2-9B, Mistral-Nemo, DeepSeek-V2-Lite.
        QTest::newRow("meta-llama/Llama-3.1-8B") << "llama-3.1-8b" << qint64(8030261248);
        QTest::newRow("meta-llama/Llama-3.1-70B") << "llama-3.1-70b" << qint64(70553706496);
        QTest::newRow("meta-llama/Llama-3.1-405B") << "llama-3.1-405b" << qint64(405853388800);
        QTest::newRow("meta-llama/Llama-3.2-1B") << "llama-3.2-1b" << qint64(1235814400);
        QTest::newRow("meta-llama/Llama-3.2-3B") << "llama-3.2-3b" << qint64(3212749824);
        QTest::newRow("Qwen/Qwen2.5-0.5B") << "qwen2.5-0.5b" << qint64(494032768);
        QTest::newRow("Qwen/Qwen2.5-1.5B") << "qwen2.5-1.5b" << qint64(1543714304);
        QTest::newRow("Qwen/Qwen2.5-3B") << "qwen2.5-3b" << qint64(3085938688);
        QTest::newRow("Qwen/Qwen2.5-7B") << "qwen2.5-7b" << qint64(7615616512);
        QTest::newRow("Qwen/Qwen2.5-14B") << "qwen2.5-14b" << qint64(14770033664);
        QTest::newRow("Qwen/Qwen2.5-32B") << "qwen2.5-32b" << qint64(32763876352);
        QTest::newRow("Qwen/Qwen2.5-72B") << "qwen2.5-72b" << qint64(72706203648);
        QTest::newRow("google/gemma-2-2b") << "gemma-2-2b" << qint64(2614341888);
        QTest::newRow("google/gemma-2-9b") << "gemma-2-9b" << qint64(9241705984);
        QTest::newRow("google/gemma-2-27b") << "gemma-2-27b" << qint64(27227128320);
        QTest::newRow("microsoft/Phi-3-mini-4k-instruct") << "phi-3-mini" << qint64(3821079552);
        QTest::newRow("microsoft/Phi-3-medium-4k-instruct") << "phi-3-medium" << qint64(13960238080);
        QTest::newRow("mistralai/Mistral-Nemo-Base-2407") << "mistral-nemo-12b" << qint64(12247782400);
        QTest::newRow("mistral-community/Mixtral-8x22B-v0.1") << "mixtral-8x22b" << qint64(140620634112);
        QTest::newRow("deepseek-ai/DeepSeek-V2-Lite") << "deepseek-v2-lite" << qint64(15706484224);
        QTest::newRow("allenai/OLMo-2-1124-7B") << "olmo-2-7b" << qint64(7298617344);
        // Qwen3 dense, by hand from each Qwen/Qwen3-* config.json (models/qwen3): embedding V h; per
        // layer q_proj h x 128a, k_proj and v_proj h x 128kv, o_proj 128a x h, gate/up/down 3 h f, two
        // RMSNorms of h, q_norm and k_norm of head_dim 128 each; final norm h; lm_head V h when untied.
        // Qwen3-1.7B ties its head (tie_word_embeddings true): 1,720,574,976; the untied figure
        // 2,031,739,904 counts the LM head a second time (+151936 x 2048).
        QTest::newRow("Qwen/Qwen3-0.6B") << "qwen3-0.6b" << qint64(596049920);
        QTest::newRow("Qwen/Qwen3-1.7B") << "qwen3-1.7b" << qint64(1720574976);
        QTest::newRow("Qwen/Qwen3-4B") << "qwen3-4b" << qint64(4022468096);
        QTest::newRow("Qwen/Qwen3-8B") << "qwen3-8b" << qint64(8190735360);
        QTest::newRow("Qwen/Qwen3-14B") << "qwen3-14b" << qint64(14768307200);
        QTest::newRow("Qwen/Qwen3-32B") << "qwen3-32b" << qint64(32762123264);
        // Qwen3 MoE, by hand from Qwen/Qwen3-30B-A3B and Qwen/Qwen3-235B-A22B config.json
        // (models/qwen3_moe): per layer q_proj h x 128a, k_proj and v_proj h x 512 (4 KV heads),
        // o_proj 128a x h, q_norm and k_norm 128 each, two RMSNorms of h, the router gate h x 128 and
        // 128 experts of 3 h f (f = moe_intermediate_size); embedding and untied lm_head V h each,
        // final norm h; V = 151936.
        //   30B-A3B (h 2048, a 32, f 768, 48 layers): attention 18,874,624 + norms 4,096 + experts
        //   603,979,776 + router 262,144 = 623,120,640 a layer; 48 x that + 2 x 311,164,928 + 2,048.
        //   235B-A22B (h 4096, a 64, f 1536, 94 layers): 71,303,424 + 8,192 + 2,415,919,104 + 524,288
        //   = 2,487,755,008 a layer; 94 x that + 2 x 622,329,856 + 4,096.
        QTest::newRow("Qwen/Qwen3-30B-A3B") << "qwen3-30b-a3b" << qint64(30532122624);
        QTest::newRow("Qwen/Qwen3-235B-A22B") << "qwen3-235b-a22b" << qint64(235093634560);
        // The models of 2026 (issue 38), by hand module by module as transformers builds them.
        // Gemma-3 (google/gemma-3-1b-pt config.json; the text_config of google/gemma-3-{4b,12b,27b},
        // its absent keys Gemma3TextConfig's defaults: vocab 262208, 8 heads, 4 KV heads, head_dim
        // 256; models/gemma3): a layer is q h x a d, k and v h x kv d, o a d x h, q_norm and k_norm d
        // each, four norms of h, GeGLU 3 h f; one tied table V h and the final norm h.
        //   1B (26 x 26,842,112 + 262144 x 1152 + 1152): Keras-Hub's gemma3_1b "params" 999,885,952
        //   (keras_hub/src/models/gemma3/gemma3_presets.py), exactly.
        //   4B 34 x 94,382,592, 12B 48 x 224,148,992, 27B (head_dim 128) 62 x 412,898,560: Keras-Hub's
        //   gemma3_{4b,12b,27b}_text 3,880,099,328, 11,765,788,416 and 27,009,002,240 exactly with
        //   its vocabulary of 262144; transformers' 262208 adds 64 h (163,840, 245,760, 344,064).
        QTest::newRow("google/gemma-3-1b-pt") << "gemma-3-1b" << qint64(999885952);
        QTest::newRow("google/gemma-3-4b-pt language model") << "gemma-3-4b" << qint64(3880263168);
        QTest::newRow("google/gemma-3-12b-pt language model") << "gemma-3-12b" << qint64(11766034176);
        QTest::newRow("google/gemma-3-27b-pt language model") << "gemma-3-27b" << qint64(27009346304);
        // gpt-oss (openai/gpt-oss-{20b,120b} config.json; models/gpt_oss): a layer is attention
        // 26,550,144 (q 2880 x 4096, k and v 2880 x 512, o 4096 x 2880, their biases 8,000, 64
        // sinks), two norms 5,760, the router 2880 E + E and E experts of 24,891,840 (gate_up
        // 2880 x 5760 + 5760, down 2880 x 2880 + 2880); embedding and untied head 201088 x 2880
        // each, final norm. OpenAI's model card (gpt-oss-120b & gpt-oss-20b, Table 1): 20.91B and
        // 116.83B total.
        QTest::newRow("openai/gpt-oss-20b (24 x 823,186,976 + 2 x 579,133,440 + 2880)") << "gpt-oss-20b" << qint64(20914757184);
        QTest::newRow("openai/gpt-oss-120b (36 x 3,213,080,192 + 2 x 579,133,440 + 2880)") << "gpt-oss-120b" << qint64(116829156672);
        // Llama-4 language models (meta-llama/Llama-4-{Scout-17B-16E,Maverick-17B-128E} text_config;
        // models/llama4): attention 62,914,560 and two norms 10,240 a layer; a mixture layer E experts
        // and one shared expert of 3 x 5120 x 8192 = 125,829,120 and the router 5120 E; a dense layer
        // 3 x 5120 x 16384; embedding and head 202048 x 5120 each, final norm. Scout: 48 mixtures of
        // 16; Maverick: 24 mixtures of 128 (layers 1, 3, ..., 47) and 24 dense layers. Meta's model
        // cards: 109B and 400B total (with the vision model: below, llama4_vision_tower).
        QTest::newRow("meta-llama/Llama-4-Scout-17B-16E language model") << "llama-4-scout" << qint64(107769861120);
        QTest::newRow("meta-llama/Llama-4-Maverick-17B-128E language model") << "llama-4-maverick" << qint64(400711848960);
        // DeepSeek-V3 / R1 (deepseek-ai/DeepSeek-V3 config.json; models/deepseek_v3): MLA 187,107,328
        // a layer (q_a 7168 x 1536, q_a_layernorm 1536, q_b 1536 x 128 x 192, kv_a_proj_with_mqa
        // 7168 x 576, kv_a_layernorm 512, kv_b 512 x 128 x 256, o 16384 x 7168), two norms; 3 dense
        // layers of 3 x 7168 x 18432, 58 mixtures of 256 + 1 experts of 3 x 7168 x 2048 and the
        // router 256 x 7168; embedding and head 129280 x 7168 each. DeepSeek's README: "671B of the
        // Main Model weights" (without the router's e_score_correction_bias buffers and the MTP
        // module: deepseek_v3_checkpoint below).
        QTest::newRow("deepseek-ai/DeepSeek-V3 (3 x 583,483,392 + 58 x 11,507,286,016 + 2 x 926,679,040 + 7168)") << "deepseek-v3" << qint64(671026404352);
    }
    // clang-format on
    void presets() {
        QFETCH(QString, preset);
        QFETCH(qint64, params);
        QCOMPARE(qint64(parameter_count(model_preset(preset.toStdString()).spec)), params);
    }

    void gpt3_shape() {
        // Brown et al. 2020 Table 2.1 gives the shape and "175.0B"; the GPT-2 architecture at that
        // shape has 174.6B parameters.
        const double p = double(parameter_count(model_preset("gpt3-175b").spec));
        QVERIFY(std::fabs(p - 175.0e9) / 175.0e9 < 0.005);
    }

    // clang-format off
    void largest_layer_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("largest");
        QTest::newRow("t5-3b shared embedding (DeepSpeed memory.rst)") << "t5-3b" << qint64(32899072);
        QTest::newRow("llama-2-7b embedding (anchors/hf/expected.json)") << "llama-2-7b" << qint64(131072000);
        QTest::newRow("gpt2 wte (anchors/hf/expected.json)") << "gpt2" << qint64(38597376);
        // tests/hand_calculations.py ("model presets"): the biggest module of each shape.
        QTest::newRow("Phi-3-medium gate_up_proj 5120 x 2*17920, bigger than the embedding") << "phi-3-medium" << qint64(183500800);
        QTest::newRow("Llama-3.1-405B embedding 128256 x 16384") << "llama-3.1-405b" << qint64(2101346304);
        QTest::newRow("DeepSeek-V2-Lite embedding 102400 x 2048") << "deepseek-v2-lite" << qint64(209715200);
        QTest::newRow("Mixtral-8x22B embedding 32000 x 6144") << "mixtral-8x22b" << qint64(196608000);
        QTest::newRow("Qwen3-0.6B embedding 151936 x 1024") << "qwen3-0.6b" << qint64(155582464);
        QTest::newRow("Qwen3-32B embedding (and lm_head) 151936 x 5120, bigger than gate_proj 5120 x 25600") << "qwen3-32b" << qint64(777912320);
        // Experts are modules of their own (h x 768 and h x 1536), far below the embedding; the
        // unused intermediate_size (ffn) makes no module.
        QTest::newRow("Qwen3-30B-A3B embedding 151936 x 2048") << "qwen3-30b-a3b" << qint64(311164928);
        QTest::newRow("Qwen3-235B-A22B embedding 151936 x 4096") << "qwen3-235b-a22b" << qint64(622329856);
    }
    // clang-format on
    void largest_layer() {
        QFETCH(QString, preset);
        QFETCH(qint64, largest);
        QCOMPARE(qint64(largest_layer_params(model_preset(preset.toStdString()).spec)), largest);
    }

    // clang-format off
    void hf_anchor_configs_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("params");
        QTest::addColumn<qint64>("largest");
        const auto expected = load_test_json("anchors/hf/expected.json").at("models");
        for (const auto& [file, e] : expected.items())
            QTest::newRow(("anchors/hf/" + file).c_str()) << QString::fromStdString(file) << qint64(e.at("params").get<std::int64_t>())
                                                          << qint64(e.at("largest_layer_params").get<std::int64_t>());
    }
    // clang-format on
    void hf_anchor_configs() {
        QFETCH(QString, file);
        QFETCH(qint64, params);
        QFETCH(qint64, largest);
        const ModelSpec m = import_hf_config(read_text_file(test_data_path("anchors/hf/" + file.toStdString())), file.toStdString());
        QCOMPARE(qint64(parameter_count(m)), params);
        QCOMPARE(qint64(largest_layer_params(m)), largest);
    }

    // clang-format off
    void hf_kin_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<qint64>("params");
        QTest::addColumn<QString>("preset");  // the preset this config.json is, if any: the import must be that spec
        QTest::newRow("EleutherAI/pythia-160m (gpt_neox)")
            << R"({"model_type":"gpt_neox","hidden_size":768,"num_attention_heads":12,"num_hidden_layers":12,"intermediate_size":3072,"vocab_size":50304,"tie_word_embeddings":false})"
            << qint64(162322944) << "";
        QTest::newRow("tiiuae/falcon-7b (falcon)")
            << R"({"model_type":"falcon","hidden_size":4544,"num_attention_heads":71,"num_hidden_layers":32,"vocab_size":65024,"multi_query":true,"parallel_attn":true,"bias":false,"new_decoder_architecture":false})"
            << qint64(6921720704) << "";
        // The original Falcon-40B config (RefinedWeb, remote code modelling_RW.py): n_head_kv and no
        // new_decoder_architecture key, yet the new architecture, query_key_value (2 x 8 + 128) x 64
        // wide and ln_attn and ln_mlp in every layer: 41,303,293,952 with the head tied as
        // transformers loads it (read as the 7B's form it was 1.07% short).
        QTest::newRow("tiiuae/falcon-40b (RefinedWeb, n_head_kv)")
            << R"({"model_type":"RefinedWeb","hidden_size":8192,"n_head":128,"n_head_kv":8,"n_layer":60,"parallel_attn":true,"bias":false,"alibi":false,"vocab_size":65024})"
            << qint64(41303293952) << "";
        QTest::newRow("microsoft/phi-2 (phi)")
            << R"({"model_type":"phi","hidden_size":2560,"num_attention_heads":32,"num_hidden_layers":32,"intermediate_size":10240,"vocab_size":51200,"num_key_value_heads":null,"tie_word_embeddings":false})"
            << qint64(2779683840) << "";
        QTest::newRow("google/gemma-7b (gemma)")
            << R"({"model_type":"gemma","hidden_size":3072,"num_attention_heads":16,"num_key_value_heads":16,"head_dim":256,"num_hidden_layers":28,"intermediate_size":24576,"vocab_size":256000})"
            << qint64(8537680896) << "";
        QTest::newRow("microsoft/Phi-3-mini-4k-instruct (phi3)")
            << R"({"model_type":"phi3","hidden_size":3072,"num_attention_heads":32,"num_key_value_heads":32,"num_hidden_layers":32,"intermediate_size":8192,"vocab_size":32064,"tie_word_embeddings":false})"
            << qint64(3821079552) << "";
        QTest::newRow("Qwen/Qwen2-0.5B (qwen2)")
            << R"({"model_type":"qwen2","hidden_size":896,"num_attention_heads":14,"num_key_value_heads":2,"num_hidden_layers":24,"intermediate_size":4864,"vocab_size":151936,"tie_word_embeddings":true})"
            << qint64(494032768) << "";
        QTest::newRow("mistralai/Mixtral-8x7B-v0.1 (mixtral)")
            << R"({"model_type":"mixtral","hidden_size":4096,"num_attention_heads":32,"num_key_value_heads":8,"num_hidden_layers":32,"intermediate_size":14336,"vocab_size":32000,"num_local_experts":8,"num_experts_per_tok":2})"
            << qint64(46702792704) << "";
        // Issue 15, item 7: each preset's config.json (the fields that make the shape, as the
        // published file states them; the counts are tests/hand_calculations.py's "model presets").
        QTest::newRow("meta-llama/Llama-3.1-8B (llama, rope_scaling llama3)")
            << R"({"model_type":"llama","hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":128256,"tie_word_embeddings":false,"attention_bias":false,"mlp_bias":false,"rope_scaling":{"factor":8.0,"low_freq_factor":1.0,"high_freq_factor":4.0,"original_max_position_embeddings":8192,"rope_type":"llama3"},"rope_theta":500000.0})"
            << qint64(8030261248) << "llama-3.1-8b";
        QTest::newRow("meta-llama/Llama-3.1-405B (llama)")
            << R"({"model_type":"llama","hidden_size":16384,"intermediate_size":53248,"num_attention_heads":128,"num_hidden_layers":126,"num_key_value_heads":8,"vocab_size":128256,"tie_word_embeddings":false,"rope_scaling":{"factor":8.0,"low_freq_factor":1.0,"high_freq_factor":4.0,"original_max_position_embeddings":8192,"rope_type":"llama3"}})"
            << qint64(405853388800) << "llama-3.1-405b";
        QTest::newRow("meta-llama/Llama-3.2-1B (llama, tied, head_dim 64)")
            << R"({"model_type":"llama","hidden_size":2048,"intermediate_size":8192,"num_attention_heads":32,"num_hidden_layers":16,"num_key_value_heads":8,"head_dim":64,"vocab_size":128256,"tie_word_embeddings":true,"rope_scaling":{"factor":32.0,"low_freq_factor":1.0,"high_freq_factor":4.0,"original_max_position_embeddings":8192,"rope_type":"llama3"}})"
            << qint64(1235814400) << "llama-3.2-1b";
        QTest::newRow("meta-llama/Llama-3.2-3B (llama, tied, head_dim 128)")
            << R"({"model_type":"llama","hidden_size":3072,"intermediate_size":8192,"num_attention_heads":24,"num_hidden_layers":28,"num_key_value_heads":8,"head_dim":128,"vocab_size":128256,"tie_word_embeddings":true})"
            << qint64(3212749824) << "llama-3.2-3b";
        QTest::newRow("Qwen/Qwen2.5-1.5B (qwen2, tied)")
            << R"({"model_type":"qwen2","hidden_size":1536,"intermediate_size":8960,"num_attention_heads":12,"num_hidden_layers":28,"num_key_value_heads":2,"vocab_size":151936,"tie_word_embeddings":true})"
            << qint64(1543714304) << "qwen2.5-1.5b";
        QTest::newRow("Qwen/Qwen2.5-7B (qwen2)")
            << R"({"model_type":"qwen2","hidden_size":3584,"intermediate_size":18944,"num_attention_heads":28,"num_hidden_layers":28,"num_key_value_heads":4,"vocab_size":152064,"tie_word_embeddings":false})"
            << qint64(7615616512) << "qwen2.5-7b";
        QTest::newRow("Qwen/Qwen2.5-72B (qwen2)")
            << R"({"model_type":"qwen2","hidden_size":8192,"intermediate_size":29568,"num_attention_heads":64,"num_hidden_layers":80,"num_key_value_heads":8,"vocab_size":152064,"tie_word_embeddings":false})"
            << qint64(72706203648) << "qwen2.5-72b";
        QTest::newRow("google/gemma-2-9b (gemma2)")
            << R"({"model_type":"gemma2","hidden_size":3584,"intermediate_size":14336,"num_attention_heads":16,"num_hidden_layers":42,"num_key_value_heads":8,"head_dim":256,"vocab_size":256000,"query_pre_attn_scalar":256,"sliding_window":4096})"
            << qint64(9241705984) << "gemma-2-9b";
        QTest::newRow("google/gemma-2-27b (gemma2, head_dim 128)")
            << R"({"model_type":"gemma2","hidden_size":4608,"intermediate_size":36864,"num_attention_heads":32,"num_hidden_layers":46,"num_key_value_heads":16,"head_dim":128,"vocab_size":256000,"query_pre_attn_scalar":144})"
            << qint64(27227128320) << "gemma-2-27b";
        QTest::newRow("google/gemma-2-2b without head_dim (Gemma2Config's default 256, not 2304/8)")
            << R"({"model_type":"gemma2","hidden_size":2304,"intermediate_size":9216,"num_attention_heads":8,"num_hidden_layers":26,"num_key_value_heads":4,"vocab_size":256000})"
            << qint64(2614341888) << "gemma-2-2b";
        QTest::newRow("microsoft/Phi-3-medium-4k-instruct (phi3)")
            << R"({"model_type":"phi3","hidden_size":5120,"intermediate_size":17920,"num_attention_heads":40,"num_hidden_layers":40,"num_key_value_heads":10,"vocab_size":32064,"tie_word_embeddings":false})"
            << qint64(13960238080) << "phi-3-medium";
        QTest::newRow("microsoft/Phi-3-mini-4k-instruct (phi3)")
            << R"({"model_type":"phi3","hidden_size":3072,"intermediate_size":8192,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":32,"vocab_size":32064,"tie_word_embeddings":false})"
            << qint64(3821079552) << "phi-3-mini";
        QTest::newRow("mistralai/Mistral-Nemo-Base-2407 (mistral, head_dim 128 of hidden 5120)")
            << R"({"model_type":"mistral","hidden_size":5120,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":40,"num_key_value_heads":8,"head_dim":128,"vocab_size":131072,"tie_word_embeddings":false})"
            << qint64(12247782400) << "mistral-nemo-12b";
        QTest::newRow("mistral-community/Mixtral-8x22B-v0.1 (mixtral)")
            << R"({"model_type":"mixtral","hidden_size":6144,"intermediate_size":16384,"num_attention_heads":48,"num_hidden_layers":56,"num_key_value_heads":8,"vocab_size":32000,"num_local_experts":8,"num_experts_per_tok":2,"tie_word_embeddings":false})"
            << qint64(140620634112) << "mixtral-8x22b";
        QTest::newRow("deepseek-ai/DeepSeek-V2-Lite (deepseek_v2: MLA without q compression, 64+2 experts, 1 dense layer)")
            << R"({"model_type":"deepseek_v2","hidden_size":2048,"intermediate_size":10944,"moe_intermediate_size":1408,"num_attention_heads":16,"num_hidden_layers":27,"num_key_value_heads":16,"n_routed_experts":64,"n_shared_experts":2,"num_experts_per_tok":6,"first_k_dense_replace":1,"moe_layer_freq":1,"kv_lora_rank":512,"q_lora_rank":null,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"v_head_dim":128,"vocab_size":102400,"tie_word_embeddings":false,"attention_bias":false,"topk_method":"greedy","rope_scaling":{"type":"yarn","factor":40,"beta_fast":32,"beta_slow":1,"mscale":0.707,"mscale_all_dim":0.707,"original_max_position_embeddings":4096}})"
            << qint64(15706484224) << "deepseek-v2-lite";
        QTest::newRow("deepseek-ai/DeepSeek-V2 (deepseek_v2: q_lora_rank 1536, 160+2 experts; hand_calculations.py)")
            << R"({"model_type":"deepseek_v2","hidden_size":5120,"intermediate_size":12288,"moe_intermediate_size":1536,"num_attention_heads":128,"num_hidden_layers":60,"num_key_value_heads":128,"n_routed_experts":160,"n_shared_experts":2,"num_experts_per_tok":6,"first_k_dense_replace":1,"moe_layer_freq":1,"kv_lora_rank":512,"q_lora_rank":1536,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"v_head_dim":128,"vocab_size":102400,"tie_word_embeddings":false,"topk_method":"group_limited_greedy","n_group":8,"topk_group":3})"
            << qint64(235741434880) << "";
        QTest::newRow("allenai/OLMo-2-1124-7B (olmo2: q_norm, k_norm, post-norms)")
            << R"({"model_type":"olmo2","hidden_size":4096,"intermediate_size":11008,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":32,"vocab_size":100352,"tie_word_embeddings":false,"attention_bias":false,"rope_theta":500000})"
            << qint64(7298617344) << "olmo-2-7b";
        QTest::newRow("Qwen/Qwen3-0.6B (qwen3: head_dim 128 of hidden 1024, per-head q_norm, k_norm, tied)")
            << R"({"model_type":"qwen3","hidden_size":1024,"intermediate_size":3072,"num_attention_heads":16,"num_hidden_layers":28,"num_key_value_heads":8,"head_dim":128,"vocab_size":151936,"tie_word_embeddings":true,"attention_bias":false,"rms_norm_eps":1e-06,"rope_theta":1000000})"
            << qint64(596049920) << "qwen3-0.6b";
        QTest::newRow("Qwen/Qwen3-0.6B without head_dim (Qwen3Config's default 128, not 1024/16)")
            << R"({"model_type":"qwen3","hidden_size":1024,"intermediate_size":3072,"num_attention_heads":16,"num_hidden_layers":28,"num_key_value_heads":8,"vocab_size":151936,"tie_word_embeddings":true})"
            << qint64(596049920) << "qwen3-0.6b";
        QTest::newRow("Qwen/Qwen3-1.7B (qwen3, tied)")
            << R"({"model_type":"qwen3","hidden_size":2048,"intermediate_size":6144,"num_attention_heads":16,"num_hidden_layers":28,"num_key_value_heads":8,"head_dim":128,"vocab_size":151936,"tie_word_embeddings":true,"attention_bias":false})"
            << qint64(1720574976) << "qwen3-1.7b";
        QTest::newRow("Qwen/Qwen3-8B (qwen3, untied)")
            << R"({"model_type":"qwen3","hidden_size":4096,"intermediate_size":12288,"num_attention_heads":32,"num_hidden_layers":36,"num_key_value_heads":8,"head_dim":128,"vocab_size":151936,"tie_word_embeddings":false,"attention_bias":false})"
            << qint64(8190735360) << "qwen3-8b";
        QTest::newRow("Qwen/Qwen3-14B (qwen3)")
            << R"({"model_type":"qwen3","hidden_size":5120,"intermediate_size":17408,"num_attention_heads":40,"num_hidden_layers":40,"num_key_value_heads":8,"head_dim":128,"vocab_size":151936,"tie_word_embeddings":false,"attention_bias":false})"
            << qint64(14768307200) << "qwen3-14b";
        QTest::newRow("Qwen/Qwen3-32B (qwen3: q 8192 wide on hidden 5120)")
            << R"({"model_type":"qwen3","hidden_size":5120,"intermediate_size":25600,"num_attention_heads":64,"num_hidden_layers":64,"num_key_value_heads":8,"head_dim":128,"vocab_size":151936,"tie_word_embeddings":false,"attention_bias":false})"
            << qint64(32762123264) << "qwen3-32b";
        QTest::newRow("Qwen3-8B with attention_bias (bias on q, k, v and o_proj: Qwen3Attention, unlike Qwen2)")
            << R"({"model_type":"qwen3","hidden_size":4096,"intermediate_size":12288,"num_attention_heads":32,"num_hidden_layers":36,"num_key_value_heads":8,"head_dim":128,"vocab_size":151936,"tie_word_embeddings":false,"attention_bias":true})"
            << qint64(8190735360 + 36 * (4096 + 1024 + 1024 + 4096)) << "";
        QTest::newRow("Qwen/Qwen3-235B-A22B (qwen3_moe: 128 experts of 1536, 8 a token, every layer)")
            << R"({"architectures":["Qwen3MoeForCausalLM"],"model_type":"qwen3_moe","hidden_size":4096,"intermediate_size":12288,"moe_intermediate_size":1536,"num_attention_heads":64,"num_hidden_layers":94,"num_key_value_heads":4,"head_dim":128,"num_experts":128,"num_experts_per_tok":8,"decoder_sparse_step":1,"mlp_only_layers":[],"norm_topk_prob":true,"vocab_size":151936,"tie_word_embeddings":false,"attention_bias":false,"max_position_embeddings":40960,"rope_theta":1000000})"
            << qint64(235093634560) << "qwen3-235b-a22b";
        QTest::newRow("Qwen3-30B-A3B with only the keys that make the shape (Qwen3MoeConfig's defaults: 128 experts of 768, top-8, 4 KV heads)")
            << R"({"model_type":"qwen3_moe","hidden_size":2048,"num_attention_heads":32,"num_hidden_layers":48,"head_dim":128,"vocab_size":151936})"
            << qint64(30532122624) << "qwen3-30b-a3b";
        // Qwen3MoeConfig has no head_dim default (Qwen3Config's is 128): Qwen3MoeAttention takes
        // hidden / heads = 64, halving q, k, v, o and the QK-norms: 48 x 9,437,312 fewer.
        QTest::newRow("Qwen3-30B-A3B without head_dim (hidden / heads = 64, not Qwen3's 128)")
            << R"({"model_type":"qwen3_moe","hidden_size":2048,"intermediate_size":6144,"moe_intermediate_size":768,"num_attention_heads":32,"num_hidden_layers":48,"num_key_value_heads":4,"num_experts":128,"num_experts_per_tok":8,"vocab_size":151936})"
            << qint64(30079131648) << "";
        QTest::newRow("google/gemma-3-4b-pt (gemma3: text_config without heads, head_dim or vocab_size)")
            << R"({"model_type":"gemma3","text_config":{"hidden_size":2560,"intermediate_size":10240,"model_type":"gemma3_text","num_hidden_layers":34,"rope_scaling":{"factor":8.0,"rope_type":"linear"},"sliding_window":1024},"vision_config":{"hidden_size":1152,"model_type":"siglip_vision_model"}})"
            << qint64(3880263168) << "gemma-3-4b";
        QTest::newRow("google/gemma-3-27b-pt (gemma3: head_dim 128, 32 heads, 16 KV heads)")
            << R"({"model_type":"gemma3","text_config":{"head_dim":128,"hidden_size":5376,"intermediate_size":21504,"model_type":"gemma3_text","num_attention_heads":32,"num_hidden_layers":62,"num_key_value_heads":16,"query_pre_attn_scalar":168,"sliding_window":1024}})"
            << qint64(27009346304) << "gemma-3-27b";
        QTest::newRow("gemma3_text with layer_types (transformers 4.53+ writes them)")
            << R"({"model_type":"gemma3_text","hidden_size":1152,"intermediate_size":6912,"num_hidden_layers":26,"num_attention_heads":4,"num_key_value_heads":1,"vocab_size":262144,"sliding_window":512,"layer_types":["sliding_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention"]})"
            << qint64(999885952) << "gemma-3-1b";
        QTest::newRow("openai/gpt-oss-120b (gpt_oss: 36 layers, 128 experts; layer_types by GptOssConfig's default)")
            << R"({"model_type":"gpt_oss","hidden_size":2880,"intermediate_size":2880,"num_attention_heads":64,"num_hidden_layers":36,"num_key_value_heads":8,"head_dim":64,"num_local_experts":128,"num_experts_per_tok":4,"sliding_window":128,"vocab_size":201088,"tie_word_embeddings":false,"attention_bias":true})"
            << qint64(116829156672) << "gpt-oss-120b";
        QTest::newRow("meta-llama/Llama-4-Maverick-17B-128E (llama4: mixtures every second layer, dense 16384 between, no QK-norm)")
            << R"({"model_type":"llama4","text_config":{"attention_bias":false,"attention_chunk_size":8192,"head_dim":128,"hidden_size":5120,"interleave_moe_layer_step":2,"intermediate_size":8192,"intermediate_size_mlp":16384,"model_type":"llama4_text","num_attention_heads":40,"num_experts_per_tok":1,"num_hidden_layers":48,"num_key_value_heads":8,"num_local_experts":128,"use_qk_norm":false,"vocab_size":202048}})"
            << qint64(400711848960) << "llama-4-maverick";
        QTest::newRow("Llama-4 Maverick as llama4_text with moe_layers written out")
            << R"({"model_type":"llama4_text","hidden_size":5120,"interleave_moe_layer_step":2,"moe_layers":[1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31,33,35,37,39,41,43,45,47],"num_attention_heads":40,"num_hidden_layers":48,"num_local_experts":128,"no_rope_layers":[],"vocab_size":202048})"
            << qint64(400711848960) << "llama-4-maverick";
        QTest::newRow("deepseek-ai/DeepSeek-V3 with only the keys that make the shape (DeepseekV3Config's defaults)")
            << R"({"model_type":"deepseek_v3","hidden_size":7168,"intermediate_size":18432,"num_attention_heads":128,"num_hidden_layers":61,"vocab_size":129280,"num_experts_per_tok":8})"
            << qint64(671026404352) << "deepseek-v3";
    }
    // clang-format on
    void hf_kin() {
        QFETCH(QString, config);
        QFETCH(qint64, params);
        QFETCH(QString, preset);
        ModelSpec m = import_hf_config(config.toStdString());
        QCOMPARE(qint64(parameter_count(m)), params);
        if (preset.isEmpty()) return;
        const ModelSpec& p = model_preset(preset.toStdString()).spec;
        QCOMPARE(qint64(largest_layer_params(m)), qint64(largest_layer_params(p)));
        m.name = p.name;  // "hf:<model_type>"; every other field must be the preset's
        QVERIFY(m == p);
    }

    // How the MLP activation runs, from the config's own name for it (transformers ACT2FN):
    // "gelu_new" is NewGELUActivation's eight tensor ops, every other one a fused kernel; each
    // model_type's config class supplies the default when the key is absent.
    // clang-format off
    void hf_activation_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("activation");
        QTest::newRow("gpt2, activation_function gelu_new") << R"({"model_type":"gpt2","n_layer":12,"n_embd":768,"n_head":12,"n_positions":1024,"vocab_size":50257,"activation_function":"gelu_new"})" << "gelu-new";
        QTest::newRow("gpt2 without the key: GPT2Config's gelu_new") << R"({"model_type":"gpt2","n_layer":12,"n_embd":768,"n_head":12,"n_positions":1024,"vocab_size":50257})" << "gelu-new";
        QTest::newRow("gpt2 with gelu_pytorch_tanh: F.gelu, fused") << R"({"model_type":"gpt2","n_layer":12,"n_embd":768,"n_head":12,"n_positions":1024,"vocab_size":50257,"activation_function":"gelu_pytorch_tanh"})" << "fused";
        QTest::newRow("phi-2, hidden_act gelu_new") << R"({"model_type":"phi","hidden_size":2560,"intermediate_size":10240,"num_attention_heads":32,"num_hidden_layers":32,"vocab_size":51200,"hidden_act":"gelu_new"})" << "gelu-new";
        QTest::newRow("gpt_neox without the key: gelu") << R"({"model_type":"gpt_neox","hidden_size":512,"intermediate_size":2048,"num_attention_heads":8,"num_hidden_layers":6,"vocab_size":50304})" << "fused";
        QTest::newRow("llama: SiLU") << R"({"model_type":"llama","hidden_size":4096,"intermediate_size":11008,"num_attention_heads":32,"num_hidden_layers":32,"vocab_size":32000,"hidden_act":"silu"})" << "fused";
    }
    // clang-format on
    void hf_activation() {
        QFETCH(QString, config);
        QFETCH(QString, activation);
        QCOMPARE(QString::fromLatin1(to_string(import_hf_config(config.toStdString()).activation)), activation);
    }

    // The MLP output's dropout (ModelSpec::residual_dropout) under each family's key, or its config
    // class's default: GPT2Config's resid_pdrop 0.1; Phi-2's config sets 0.1 (PhiConfig's default 0).
    // clang-format off
    void hf_residual_dropout_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<bool>("dropout");
        QTest::newRow("gpt2, resid_pdrop 0.1") << R"({"model_type":"gpt2","n_layer":12,"n_embd":768,"n_head":12,"n_positions":1024,"vocab_size":50257,"resid_pdrop":0.1})" << true;
        QTest::newRow("gpt2 without the key: GPT2Config's 0.1") << R"({"model_type":"gpt2","n_layer":12,"n_embd":768,"n_head":12,"n_positions":1024,"vocab_size":50257})" << true;
        QTest::newRow("gpt2, resid_pdrop 0") << R"({"model_type":"gpt2","n_layer":12,"n_embd":768,"n_head":12,"n_positions":1024,"vocab_size":50257,"resid_pdrop":0.0})" << false;
        QTest::newRow("phi-2, resid_pdrop 0.1") << R"({"model_type":"phi","hidden_size":2560,"intermediate_size":10240,"num_attention_heads":32,"num_hidden_layers":32,"vocab_size":51200,"resid_pdrop":0.1})" << true;
        QTest::newRow("phi without the key: PhiConfig's 0") << R"({"model_type":"phi","hidden_size":2560,"intermediate_size":10240,"num_attention_heads":32,"num_hidden_layers":32,"vocab_size":51200})" << false;
        QTest::newRow("gpt_neox, hidden_dropout 0.1") << R"({"model_type":"gpt_neox","hidden_size":512,"intermediate_size":2048,"num_attention_heads":8,"num_hidden_layers":6,"vocab_size":50304,"hidden_dropout":0.1})" << true;
        QTest::newRow("phi3, resid_pdrop 0.1") << R"({"model_type":"phi3","hidden_size":3072,"intermediate_size":8192,"num_attention_heads":32,"num_key_value_heads":32,"num_hidden_layers":32,"vocab_size":32064,"resid_pdrop":0.1})" << true;
        QTest::newRow("llama with a stray resid_pdrop: not its key") << R"({"model_type":"llama","hidden_size":4096,"intermediate_size":11008,"num_attention_heads":32,"num_hidden_layers":32,"vocab_size":32000,"resid_pdrop":0.1})" << false;
        QTest::newRow("gpt_neox, hidden_dropout 0") << R"({"model_type":"gpt_neox","hidden_size":512,"intermediate_size":2048,"num_attention_heads":8,"num_hidden_layers":6,"vocab_size":50304,"hidden_dropout":0.0})" << false;
        QTest::newRow("llama: attention_dropout only") << R"({"model_type":"llama","hidden_size":4096,"intermediate_size":11008,"num_attention_heads":32,"num_hidden_layers":32,"vocab_size":32000,"attention_dropout":0.0})" << false;
    }
    // clang-format on
    void hf_residual_dropout() {
        QFETCH(QString, config);
        QFETCH(bool, dropout);
        QCOMPARE(import_hf_config(config.toStdString()).residual_dropout, dropout);
    }

    // Whole config.json files as the Hub serves them (tests/data/hf), read from disk like
    // --hf-config: the preset they are, and its count.
    // clang-format off
    void hf_config_files_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("params");
        QTest::addColumn<QString>("preset");
        QTest::newRow("Qwen/Qwen3-4B config.json (qwen3: head_dim 128, q 4096 wide on hidden 2560, tied)")
            << "hf/qwen3-4b.config.json" << qint64(4022468096) << "qwen3-4b";
        QTest::newRow("Qwen/Qwen3-30B-A3B config.json (qwen3_moe: 128 experts of 768, top-8, intermediate_size unused)")
            << "hf/qwen3-30b-a3b.config.json" << qint64(30532122624) << "qwen3-30b-a3b";
        // The files' provenance (not downloaded from the Hub here; see each row):
        // gemma-3-1b: google/gemma-3-1b-pt's keys as several public copies state them (hidden 1152,
        //   26 layers, 4 heads, 1 KV head, head_dim 256, intermediate 6912, vocab 262144,
        //   sliding_window 512, sliding_window_pattern 6, tied), the serving-only keys left out.
        QTest::newRow("google/gemma-3-1b-pt config.json, reconstructed (gemma3_text: 512-token windows on five layers of six)")
            << "hf/gemma-3-1b.config.json" << qint64(999885952) << "gemma-3-1b";
        // gemma-3-12b: google/gemma-3-12b-it config.json as a public project embeds it ("Source:
        //   google/gemma-3-12b-it config.json"): the sparse text_config (no vocab_size, head_dim).
        QTest::newRow("google/gemma-3-12b-it config.json (gemma3: sparse text_config, vocab 262208 by default, SigLIP not counted)")
            << "hf/gemma-3-12b.config.json" << qint64(11766034176) << "gemma-3-12b";
        // gpt-oss-20b: the copy in github.com/EchoCog/gpt-oss-20b config.json, with
        //   quantization_config.quant_method "mxfp4" as openai/gpt-oss-20b states it (the copy says
        //   "gptq"; its docs/gpt-oss-20b-architecture.md says mxfp4). Not read by the importer.
        QTest::newRow("openai/gpt-oss-20b config.json (gpt_oss: 32 experts, top-4, biases, sinks, alternating 128-token windows)")
            << "hf/gpt-oss-20b.config.json" << qint64(20914757184) << "gpt-oss-20b";
        // llama-4-scout: the Llama4Config transformers 4.51 printed for meta-llama/Llama-4-Scout-17B-16E
        //   (a public model-notes file), moe_layers written out (the note abbreviates it "0..47").
        QTest::newRow("meta-llama/Llama-4-Scout-17B-16E config.json, as transformers prints it (llama4: 16 experts + shared, chunked 3 of 4)")
            << "hf/llama-4-scout.config.json" << qint64(107769861120) << "llama-4-scout";
        // deepseek-r1: deepseek-ai/DeepSeek-R1 config.json as a public project copies it whole; R1's
        //   shapes are DeepSeek-V3's (the preset deepseek-v3).
        QTest::newRow("deepseek-ai/DeepSeek-R1 config.json (deepseek_v3: MLA, 256 + 1 experts, 3 dense layers, MTP not counted)")
            << "hf/deepseek-r1.config.json" << qint64(671026404352) << "deepseek-v3";
    }
    // clang-format on
    void hf_config_files() {
        QFETCH(QString, file);
        QFETCH(qint64, params);
        QFETCH(QString, preset);
        ModelSpec m = import_hf_config(read_text_file(test_data_path(file.toStdString())), file.toStdString());
        QVERIFY2(m.name.starts_with("hf:"), m.name.c_str());
        QCOMPARE(qint64(parameter_count(m)), params);
        const ModelSpec& p = model_preset(preset.toStdString()).spec;
        QCOMPARE(qint64(largest_layer_params(m)), qint64(largest_layer_params(p)));
        m.name = p.name;
        QVERIFY(m == p);
    }

    // clang-format off
    void hf_errors_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("mustMention");
        QTest::newRow("missing field") << R"({"model_type":"llama","hidden_size":4096})" << "'num_attention_heads' is missing";
        QTest::newRow("unknown model type") << R"({"model_type":"rwkv"})" << "model_type 'rwkv' is not supported; supported: ";
        QTest::newRow("no model type") << R"({"hidden_size":4096})" << "'model_type' is missing";
        QTest::newRow("malformed JSON: line and column") << "{\n  \"model_type\": \"llama\",\n  \"hidden_size\": ,\n}" << "line 3, column 18";
        QTest::newRow("string where a count belongs") << R"({"model_type":"gpt2","n_layer":"12","n_embd":768,"n_head":12,"vocab_size":50257,"n_positions":1024})"
                                                     << "'n_layer' must be a positive integer";
        QTest::newRow("fractional count") << R"({"model_type":"gpt2","n_layer":12.5,"n_embd":768,"n_head":12,"vocab_size":50257,"n_positions":1024})"
                                         << "'n_layer' must be a positive integer";
        QTest::newRow("not an object") << "[1, 2]" << "must be a JSON object";
        QTest::newRow("deepseek_v2 mixture without top-k")
            << R"({"model_type":"deepseek_v2","hidden_size":2048,"intermediate_size":10944,"num_attention_heads":16,"num_hidden_layers":27,"vocab_size":102400,"n_routed_experts":64})"
            << "'num_experts_per_tok' is missing (needed for model_type 'deepseek_v2')";
        QTest::newRow("deepseek_v2 MoE every other layer")
            << R"({"model_type":"deepseek_v2","hidden_size":2048,"intermediate_size":10944,"num_attention_heads":16,"num_hidden_layers":27,"vocab_size":102400,"num_experts_per_tok":6,"moe_layer_freq":2})"
            << "moe_layer_freq 2 is not supported";
        QTest::newRow("deepseek_v2 more dense layers than layers")
            << R"({"model_type":"deepseek_v2","hidden_size":2048,"intermediate_size":10944,"num_attention_heads":16,"num_hidden_layers":27,"vocab_size":102400,"num_experts_per_tok":6,"first_k_dense_replace":28})"
            << "config.json: model field 'first_dense_layers' must be between 0 and 27, got 28";
        QTest::newRow("qwen3_moe mixture every other layer")
            << R"({"model_type":"qwen3_moe","hidden_size":2048,"num_attention_heads":32,"num_hidden_layers":48,"head_dim":128,"vocab_size":151936,"decoder_sparse_step":2})"
            << "config.json: decoder_sparse_step 2 is not supported";
        QTest::newRow("qwen3_moe dense layers")
            << R"({"model_type":"qwen3_moe","hidden_size":2048,"num_attention_heads":32,"num_hidden_layers":48,"head_dim":128,"vocab_size":151936,"mlp_only_layers":[0,47]})"
            << "config.json: mlp_only_layers [0,47] is not supported";
        QTest::newRow("qwen3_moe mlp_only_layers not a list")
            << R"({"model_type":"qwen3_moe","hidden_size":2048,"num_attention_heads":32,"num_hidden_layers":48,"head_dim":128,"vocab_size":151936,"mlp_only_layers":3})"
            << "mlp_only_layers 3 is not supported";
        QTest::newRow("qwen3_moe decoder_sparse_step 0")
            << R"({"model_type":"qwen3_moe","hidden_size":2048,"num_attention_heads":32,"num_hidden_layers":48,"head_dim":128,"vocab_size":151936,"decoder_sparse_step":0})"
            << "'decoder_sparse_step' must be a positive integer";
        QTest::newRow("qwen3_moe one expert")
            << R"({"model_type":"qwen3_moe","hidden_size":2048,"num_attention_heads":32,"num_hidden_layers":48,"head_dim":128,"vocab_size":151936,"num_experts":1,"num_experts_per_tok":1})"
            << "num_experts 1 is not supported";
        QTest::newRow("qwen3_moe more experts a token than experts")
            << R"({"model_type":"qwen3_moe","hidden_size":2048,"num_attention_heads":32,"num_hidden_layers":48,"head_dim":128,"vocab_size":151936,"num_experts":8,"num_experts_per_tok":9})"
            << "experts_per_token (9) cannot exceed experts (8)";
        QTest::newRow("gemma3 without text_config")
            << R"({"model_type":"gemma3","vision_config":{}})" << "field 'text_config' is missing or not an object";
        QTest::newRow("gemma3 text_config field missing")
            << R"({"model_type":"gemma3","text_config":{"hidden_size":2560,"num_hidden_layers":34}})"
            << "config.json: text_config: field 'intermediate_size' is missing";
        QTest::newRow("gemma3_text global layers not every sixth")
            << R"({"model_type":"gemma3_text","hidden_size":1152,"intermediate_size":6912,"num_hidden_layers":4,"sliding_window":512,"layer_types":["sliding_attention","full_attention","full_attention","sliding_attention"]})"
            << "layer_types [\"sliding_attention\",\"full_attention\",\"full_attention\",\"sliding_attention\"] is not supported";
        QTest::newRow("gemma3_text layer_types shorter than the layers")
            << R"({"model_type":"gemma3_text","hidden_size":1152,"intermediate_size":6912,"num_hidden_layers":4,"sliding_window":512,"layer_types":["full_attention"]})"
            << "layer_types must list one entry per layer (4)";
        QTest::newRow("gpt_oss one expert")
            << R"({"model_type":"gpt_oss","hidden_size":2880,"intermediate_size":2880,"num_attention_heads":64,"num_hidden_layers":24,"vocab_size":201088,"num_local_experts":1,"num_experts_per_tok":1})"
            << "num_local_experts 1 is not supported";
        QTest::newRow("llama4 moe_layers off the interleave step")
            << R"({"model_type":"llama4_text","hidden_size":5120,"num_attention_heads":40,"num_hidden_layers":4,"vocab_size":202048,"moe_layers":[0,2]})"
            << "moe_layers [0,2] is not supported: the planner takes a mixture every interleave_moe_layer_step-th layer ([0,1,2,3])";
        QTest::newRow("llama4 interleave step above the layers")
            << R"({"model_type":"llama4_text","hidden_size":5120,"num_attention_heads":40,"num_hidden_layers":4,"vocab_size":202048,"interleave_moe_layer_step":5})"
            << "model field 'moe_layer_step' must be between 1 and 4, got 5";
        QTest::newRow("llama4 no_rope_layers irregular")
            << R"({"model_type":"llama4_text","hidden_size":5120,"num_attention_heads":40,"num_hidden_layers":4,"vocab_size":202048,"no_rope_layers":[1,0,0,1]})"
            << "no_rope_layers [1,0,0,1] is not supported";
        QTest::newRow("llama4 without text_config")
            << R"({"model_type":"llama4"})" << "field 'text_config' is missing or not an object (needed for model_type 'llama4')";
        QTest::newRow("deepseek_v3 MoE every other layer")
            << R"({"model_type":"deepseek_v3","hidden_size":7168,"intermediate_size":18432,"num_attention_heads":128,"num_hidden_layers":61,"vocab_size":129280,"num_experts_per_tok":8,"moe_layer_freq":2})"
            << "moe_layer_freq 2 is not supported";
    }
    // clang-format on
    void hf_errors() {
        QFETCH(QString, config);
        QFETCH(QString, mustMention);
        try {
            import_hf_config(config.toStdString(), "config.json");
            QFAIL("accepted a bad config");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(mustMention), e.what());
        }
    }

    // Configs a DeepSeek checkpoint never has, counted as transformers would build them.
    void hf_deepseek_v2_defaults() {
        // Keys left out take DeepseekV2Config's defaults: q_lora_rank 1536, kv_lora_rank 512, 64 routed
        // experts of 1407, 2 shared, no dense layer; a null n_routed_experts is a dense model.
        const ModelSpec d = import_hf_config(
            R"({"model_type":"deepseek_v2","hidden_size":2048,"intermediate_size":10944,"num_attention_heads":16,"num_hidden_layers":27,"vocab_size":102400,"num_experts_per_tok":6})");
        QCOMPARE(d.q_lora_rank, std::int64_t{1536});
        QCOMPARE(d.kv_lora_rank, std::int64_t{512});
        QCOMPARE(d.head_dim, std::int64_t{192});
        QCOMPARE(d.experts, std::int64_t{64});
        QCOMPARE(d.moe_ffn, std::int64_t{1407});
        QCOMPARE(d.shared_experts, std::int64_t{2});
        QCOMPARE(d.first_dense_layers, std::int64_t{0});
        const ModelSpec dense = import_hf_config(
            R"({"model_type":"deepseek_v2","hidden_size":2048,"intermediate_size":10944,"num_attention_heads":16,"num_hidden_layers":27,"vocab_size":102400,"n_routed_experts":null,"n_shared_experts":null})");
        QCOMPARE(dense.experts, std::int64_t{1});
        QCOMPARE(dense.shared_experts, std::int64_t{0});
        // A dense MLA model is the MoE one with each MoE layer's MLP swapped for the dense one.
        ModelSpec moe = dense;
        moe.experts = 64;
        moe.experts_per_token = 6;
        moe.moe_ffn = 1408;
        moe.shared_experts = 2;
        const std::int64_t h = 2048, dense_mlp = 3 * h * 10944, moe_mlp = 64 * 3 * h * 1408 + h * 64 + 3 * h * 2 * 1408;
        QCOMPARE(parameter_count(moe) - parameter_count(dense), 27 * (moe_mlp - dense_mlp));
        moe.first_dense_layers = 1;
        QCOMPARE(parameter_count(moe) - parameter_count(dense), 26 * (moe_mlp - dense_mlp));
    }

    // The new fields' modules one at a time, against the model without them.
    void feature_increments() {
        const ModelSpec base = model_preset("olmo-2-7b").spec;
        ModelSpec plain = base;
        plain.qk_norm = false;
        QCOMPARE(parameter_count(base) - parameter_count(plain), std::int64_t{32} * (4096 + 4096));  // q_norm + k_norm per layer
        // Qwen3's QK-norm is per head: q_norm and k_norm of head_dim 128 each, not OLMo-2's whole
        // q (32 x 128) and k (8 x 128) widths; qk_norm_per_head is read only with qk_norm.
        const ModelSpec qwen3 = model_preset("qwen3-8b").spec;
        ModelSpec no_qk_norm = qwen3;
        no_qk_norm.qk_norm = false;
        QCOMPARE(parameter_count(qwen3) - parameter_count(no_qk_norm), std::int64_t{36} * (128 + 128));
        ModelSpec whole_width = qwen3;
        whole_width.qk_norm_per_head = false;
        QCOMPARE(parameter_count(whole_width) - parameter_count(no_qk_norm), std::int64_t{36} * (32 * 128 + 8 * 128));
        ModelSpec unread_per_head = no_qk_norm;  // the flag flipped without QK-norm: the same count
        unread_per_head.qk_norm_per_head = false;
        QCOMPARE(parameter_count(unread_per_head), parameter_count(no_qk_norm));
        QVERIFY(!(unread_per_head == no_qk_norm));  // a field of its own in the defaulted equality
        // MLA: q_a_proj + q_a_layernorm + q_b_proj replace q_proj when q_lora_rank is set.
        ModelSpec lite = model_preset("deepseek-v2-lite").spec;
        ModelSpec compressed = lite;
        compressed.q_lora_rank = 1536;
        const std::int64_t h = 2048, qk = 16 * 192;
        QCOMPARE(parameter_count(compressed) - parameter_count(lite), 27 * ((h * 1536 + 1536 + 1536 * qk) - h * qk));
        // Fields read only with their feature on: MLA dimensions without kv_lora_rank, the mixture's
        // without experts.
        ModelSpec unread = model_preset("llama-2-7b").spec;
        unread.q_lora_rank = 1536;
        unread.qk_nope_head_dim = 128;
        unread.v_head_dim = 128;
        unread.moe_ffn = 1408;
        unread.shared_experts = 2;
        unread.first_dense_layers = 1;
        validate(unread);
        QCOMPARE(parameter_count(unread), qint64(6738415616));
        // What lies outside the blocks (a copy without layers, as trainable_params.cpp counts it):
        // DeepSeek-V2-Lite's embedding, final norm and LM head only (its dense first layer is a block).
        ModelSpec outside = lite;
        outside.layers = 0;
        QCOMPARE(parameter_count(outside), std::int64_t{2} * 102400 * 2048 + 2048);
    }

    // Active parameters a token passes through, as the FLOPs count them (core/time/flops.h
    // layer_matmul_params): everything but the input embedding, the LM head (head_matmul_params,
    // V h, counted on its own) and the experts a token skips, (experts - experts_per_token) x
    // 3 h f a mixture layer; norms and routers stay in. By hand:
    //   Qwen3-30B-A3B: 30,532,122,624 - 2 x 311,164,928 - 48 x 120 x 4,718,592 = 2,730,702,848;
    //     with the LM head 3,041,867,776, with the embedding too 3,353,032,704 ("3.3B activated").
    //   Qwen3-235B-A22B: 235,093,634,560 - 2 x 622,329,856 - 94 x 120 x 18,874,368 = 20,946,103,808;
    //     with the LM head 21,568,433,664, with the embedding too 22,190,763,520 ("22B activated").
    //   Mixtral 8x7B: 46,702,792,704 - 2 x 131,072,000 - 32 x 6 x 176,160,768 = 12,617,781,248;
    //     with the LM head and embedding 12,879,925,248 (Mistral's "12.9B active").
    // clang-format off
    void active_params_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("layers");      // layer_matmul_params
        QTest::addColumn<qint64>("with_head");   // + head_matmul_params
        QTest::newRow("qwen3-30b-a3b") << "qwen3-30b-a3b" << qint64(2730702848) << qint64(3041867776);
        QTest::newRow("qwen3-235b-a22b") << "qwen3-235b-a22b" << qint64(20946103808) << qint64(21568433664);
        QTest::newRow("mixtral-8x7b") << "mixtral-8x7b" << qint64(12617781248) << qint64(12748853248);
        // gpt-oss: total - 2 V h - layers x (E - 4) x 24,891,840; with the LM head 3.61B and 5.13B,
        // OpenAI's model card's "active parameters per token" (3.61B, 5.13B: embedding left out).
        QTest::newRow("gpt-oss-20b") << "gpt-oss-20b" << qint64(3029173824) << qint64(3608307264);
        QTest::newRow("gpt-oss-120b") << "gpt-oss-120b" << qint64(4553716032) << qint64(5132849472);
        // Llama-4: total - 2 V h - mixtures x (E - 1) x 125,829,120; with the head and the embedding
        // 17.17B and 17.18B, the model cards' "17B active".
        QTest::newRow("llama-4-scout") << "llama-4-scout" << qint64(15103923200) << qint64(16138408960);
        QTest::newRow("llama-4-maverick") << "llama-4-maverick" << qint64(15115719680) << qint64(16150205440);
        // DeepSeek-V3: total - 2 V h - 58 x 248 x 44,040,192; with the head and the embedding
        // 37,552,282,624, the README's "37B activated".
        QTest::newRow("deepseek-v3") << "deepseek-v3" << qint64(35698924544) << qint64(36625603584);
    }
    // clang-format on
    void active_params() {
        QFETCH(QString, preset);
        QFETCH(qint64, layers);
        QFETCH(qint64, with_head);
        const ModelSpec& m = model_preset(preset.toStdString()).spec;
        QCOMPARE(qint64(layer_matmul_params(m)), layers);
        QCOMPARE(qint64(layer_matmul_params(m) + head_matmul_params(m)), with_head);
    }

    // Qwen3 MoE's Linear modules as transformers v4 names them (models/qwen3_moe): Qwen3's attention,
    // the router mlp.gate and mlp.experts.N.gate_proj/up_proj/down_proj at moe_intermediate_size
    // (not intermediate_size), each expert computing 8/128 of the tokens. Their weights, the
    // norms (two of h and q_norm, k_norm of 128 a layer, the final h) and the two V h tables are
    // the whole count.
    void qwen3_moe_linear_modules() {
        for (const char* name : {"qwen3-30b-a3b", "qwen3-235b-a22b"}) {
            const ModelSpec& m = model_preset(name).spec;
            QCOMPARE(QString::fromStdString(linear_module_names(m)),
                     QStringLiteral("q_proj, k_proj, v_proj, o_proj, gate, gate_proj, up_proj, down_proj, lm_head"));
            const std::int64_t h = m.hidden, L = m.layers;
            std::int64_t weights = 0;
            for (const LinearModule& l : linear_modules(m)) {
                QVERIFY(!l.bias);
                if (l.role == LinearRole::Head) continue;
                weights += l.count * l.in * l.out;
                if (l.name == "gate") {
                    QCOMPARE(l.role, LinearRole::Router);
                    QCOMPARE(l.count, L);
                    QCOMPARE(l.out, std::int64_t{128});
                    QCOMPARE(l.token_share, 1.0);
                }
                if (l.name == "gate_proj" || l.name == "up_proj" || l.name == "down_proj") {
                    QCOMPARE(l.count, L * 128);
                    QCOMPARE(l.name == "down_proj" ? l.in : l.out, m.moe_ffn);
                    QCOMPARE(l.token_share, 8.0 / 128.0);
                }
            }
            QCOMPARE(weights + L * (2 * h + 2 * 128) + h + 2 * m.vocab * h, parameter_count(m));
        }
        QCOMPARE(model_preset("qwen3-30b-a3b").spec.moe_ffn, std::int64_t{768});
        QCOMPARE(model_preset("qwen3-235b-a22b").spec.moe_ffn, std::int64_t{1536});
        // PEFT's target map has no qwen3_moe: a default-target LoRA asks for target_modules.
        QVERIFY(peft_default_targets(model_preset("qwen3-30b-a3b").spec).empty());
    }

    // PEFT's default LoRA targets by model_type (src/peft/utils/constants.py
    // TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING at 00073fe): "llama4", "gemma3_text" and
    // "qwen3" are q_proj and v_proj; qwen3_moe, gpt_oss and deepseek_v3 are not in the map, so a
    // default-target LoRA on them asks for target_modules (peft's "Please specify target_modules").
    void peft_default_targets_2026_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<bool>("mapped");
        QTest::newRow("qwen3: q_proj, v_proj") << QStringLiteral("qwen3-8b") << true;
        QTest::newRow("gemma3_text: q_proj, v_proj") << QStringLiteral("gemma-3-27b") << true;
        QTest::newRow("llama4: q_proj, v_proj") << QStringLiteral("llama-4-scout") << true;
        QTest::newRow("qwen3_moe: not in the map") << QStringLiteral("qwen3-30b-a3b") << false;
        QTest::newRow("gpt_oss: not in the map") << QStringLiteral("gpt-oss-20b") << false;
        QTest::newRow("deepseek_v3: not in the map") << QStringLiteral("deepseek-v3") << false;
    }
    void peft_default_targets_2026() {
        QFETCH(QString, preset);
        QFETCH(bool, mapped);
        const std::vector<std::string> targets = peft_default_targets(model_preset(preset.toStdString()).spec);
        const std::vector<std::string> expected = mapped ? std::vector<std::string>{"q_proj", "v_proj"} : std::vector<std::string>{};
        QCOMPARE(targets, expected);
    }

    // What the presets leave out, and the published totals that include it.
    //   Gemma-3: the SigLIP vision tower (patch conv 678,528, positions 4096 x 1152, 27 layers of
    //   15,239,504, post-layernorm 2,304: 416,866,032) and the projector (1152 x hidden + 1152).
    //   Keras-Hub's medgemma_4b and medgemma_instruct_27b (vocab 262208, as transformers' text
    //   config) are 4,300,079,472 and 27,432,406,640 (gemma3_presets.py "params"): exactly.
    //   Llama-4 Scout: the vision model and projector, 871,932,416 (34 layers of 23,807,872, patch
    //   and position embeddings, adapter 23,068,672 + 16,777,216, projector 5120 x 4096); the
    //   Hub's safetensors total for meta-llama/Llama-4-Scout-17B-16E-Instruct is 108,641,793,536
    //   (as two public projects record it): exactly.
    //   DeepSeek-V3: the checkpoint adds e_score_correction_bias (58 x 256) and the MTP layer
    //   (one mixture layer 11,507,286,016 with its 256 biases, enorm and hnorm 2 x 7168,
    //   eh_proj 7168 x 14336, shared_head.norm 7168: 11,610,068,224, the "11.5B unique" of
    //   DeepSeek's README_WEIGHTS.md, and copies of the embedding and head, 1,853,358,080):
    //   684,489,845,504, DeepSeek's "685B" (671B + 14B MTP) within 0.1%.
    void vision_towers_and_checkpoints() {
        const std::int64_t siglip = 416866032;
        QCOMPARE(parameter_count(model_preset("gemma-3-4b").spec) + siglip + (1152 * 2560 + 1152), std::int64_t{4300079472});
        QCOMPARE(parameter_count(model_preset("gemma-3-27b").spec) + siglip + (1152 * 5376 + 1152), std::int64_t{27432406640});
        QCOMPARE(parameter_count(model_preset("llama-4-scout").spec) + 871932416, std::int64_t{108641793536});
        const std::int64_t h = 7168, mtp = 11507286016 + 256 + 2 * h + 2 * h * h + h;
        QCOMPARE(mtp, std::int64_t{11610068224});
        const std::int64_t checkpoint = parameter_count(model_preset("deepseek-v3").spec) + 58 * 256 + mtp + 2 * 129280 * h;
        QCOMPARE(checkpoint, std::int64_t{684489845504});
        QVERIFY(std::fabs(double(checkpoint) - 685e9) / 685e9 < 0.001);
    }

    // The local-attention layers and the mixture layout the presets record as data.
    void layer_patterns() {
        const ModelSpec& gemma = model_preset("gemma-3-12b").spec;
        QCOMPARE(gemma.attention_window, std::int64_t{1024});
        QCOMPARE(gemma.global_layer_every, std::int64_t{6});
        QCOMPARE(model_preset("gemma-3-1b").spec.attention_window, std::int64_t{512});
        const ModelSpec& oss = model_preset("gpt-oss-20b").spec;
        QCOMPARE(oss.attention_window, std::int64_t{128});
        QCOMPARE(oss.global_layer_every, std::int64_t{2});
        QVERIFY(!oss.chunked_attention);
        const ModelSpec& maverick = model_preset("llama-4-maverick").spec;
        QVERIFY(maverick.chunked_attention);
        QCOMPARE(maverick.global_layer_every, std::int64_t{4});
        QCOMPARE(moe_layers(maverick), std::int64_t{24});
        QVERIFY(!is_moe_layer(maverick, 0));
        QVERIFY(is_moe_layer(maverick, 1));
        QVERIFY(is_moe_layer(maverick, 47));
        QCOMPARE(moe_layers(model_preset("llama-4-scout").spec), std::int64_t{48});
        const ModelSpec& v3 = model_preset("deepseek-v3").spec;
        QCOMPARE(moe_layers(v3), std::int64_t{58});
        QVERIFY(!is_moe_layer(v3, 2));
        QVERIFY(is_moe_layer(v3, 3));
        // A token's MLP width: Maverick averages its dense layers (16384) and mixtures (one routed
        // and one shared expert of 8192); DeepSeek-V3 3 x 18432 and 58 x 9 x 2048 over 61 layers.
        QCOMPARE(mlp_width_per_token(maverick), 16384.0);
        QCOMPARE(mlp_width_per_token(v3), (3.0 * 18432 + 58.0 * 9 * 2048) / 61);
        // The largest module of Maverick is its embedding (and head), 202048 x 5120.
        QCOMPARE(largest_layer_params(maverick), std::int64_t{202048} * 5120);
    }

    // gpt-oss's and Llama-4's fused experts as linear_modules lists them; with the norms, sinks and
    // tables they make the whole count.
    void fused_expert_modules() {
        const ModelSpec& oss = model_preset("gpt-oss-20b").spec;
        QCOMPARE(QString::fromStdString(linear_module_names(oss)),
                 QStringLiteral("q_proj, k_proj, v_proj, o_proj, router, gate_up_proj, down_proj, lm_head"));
        const ModelSpec& maverick = model_preset("llama-4-maverick").spec;
        QCOMPARE(QString::fromStdString(linear_module_names(maverick)),
                 QStringLiteral("q_proj, k_proj, v_proj, o_proj, router, gate_up_proj, down_proj, gate_proj, up_proj, lm_head"));
        for (const ModelSpec* m : {&oss, &maverick}) {
            std::int64_t n = 0;
            for (const LinearModule& l : linear_modules(*m)) n += l.count * (l.in * l.out + (l.bias ? l.out : 0));
            n += m->layers * (2 * m->hidden + (m->attention_sinks ? m->heads : 0)) + m->hidden + m->vocab * m->hidden;
            QCOMPARE(n, parameter_count(*m));
        }
    }

    // clang-format off
    void validate_rejects_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("mustMention");
        QTest::newRow("MLA without v_head_dim") << 0 << "needs a query/key head (qk_nope_head_dim + qk_rope_head_dim > 0) and v_head_dim > 0";
        QTest::newRow("MLA without a q/k head") << 1 << "needs a query/key head";
        QTest::newRow("more dense layers than layers") << 2 << "model field 'first_dense_layers' must be between 0 and 27, got 28";
        QTest::newRow("negative expert width") << 3 << "model field 'moe_ffn' must be between 0 and";
        QTest::newRow("negative q_lora_rank") << 4 << "model field 'q_lora_rank' must be between 0 and";
    }
    // clang-format on
    void validate_rejects() {
        QFETCH(int, which);
        QFETCH(QString, mustMention);
        ModelSpec m = model_preset("deepseek-v2-lite").spec;
        validate(m);
        if (which == 0) m.v_head_dim = 0;
        if (which == 1) m.qk_nope_head_dim = m.qk_rope_head_dim = 0;
        if (which == 2) m.first_dense_layers = 28;
        if (which == 3) m.moe_ffn = -1;
        if (which == 4) m.q_lora_rank = -1;
        try {
            validate(m);
            QFAIL("accepted an invalid model");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(mustMention), e.what());
        }
    }

    void synthesized_keeps_the_exact_count() {
        const ModelSpec m = synthesize_model(13'000'000'000);
        QCOMPARE(qint64(parameter_count(m)), qint64(13'000'000'000));
        QVERIFY(m.synthesized);
        QCOMPARE(m.hidden, 128 * m.layers);
        QVERIFY(m.layers >= 38 && m.layers <= 42);  // Llama-2 13B: 40 layers of 5120
        QVERIFY(largest_layer_params(m) <= parameter_count(m));
    }

    // The smallest count a size may be synthesized at (limits::kSynthesizedParams, the window's size
    // box and --params) is the smallest synthesized shape's own: 2 layers of hidden 256 (two heads of
    // 128, ffn 1024) and a 51,200-token vocabulary, tied.
    void smallest_synthesized_size_is_its_shape() {
        const auto smallest = static_cast<std::int64_t>(limits::kSynthesizedParams.min);
        ModelSpec two_layers = synthesize_model(smallest);
        two_layers.params_override = two_layers.largest_layer_override = 0;
        two_layers.layers = 2;
        two_layers.hidden = 256;
        two_layers.heads = two_layers.kv_heads = 2;
        two_layers.ffn = 1024;
        QCOMPARE(qint64(parameter_count(two_layers)), qint64(smallest));
        QCOMPARE(qint64(parameter_count(synthesize_model(smallest))), qint64(smallest));
        QVERIFY_THROWS_EXCEPTION(InputError, synthesize_model(smallest - 1));
    }
};

ZP_TEST_APPLESS_MAIN(TestModelSpec)
#include "tst_model_spec.moc"
