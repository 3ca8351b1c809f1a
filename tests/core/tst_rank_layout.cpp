// Where Megatron-DeepSpeed puts each rank (core/model/parallel_layout.h rank_coordinates) and
// which links each group's traffic takes (rank_links, layout_links): Megatron's own 16-GPU
// example from initialize_model_parallel's docstring, BLOOM-176B's TP 4 x PP 12 x DP 8 on 48
// DGX nodes (bigscience tr11), and the small layouts whose groups stay on NVLink.
#include "core/model/experts.h"
#include "core/model/parallel_layout.h"
#include "test_util.h"

#include "test_main.h"

#include <set>
#include <tuple>

using namespace zp;
using zp::test::preset_scenario;

Q_DECLARE_METATYPE(zp::GroupLink)

namespace {

Scenario layout(std::int64_t gpus, std::int64_t t, std::int64_t p, std::int64_t v = 1, int stage = 1) {
    Scenario s = preset_scenario("bloom-176b", "a100-80gb", gpus);
    s.parallel.tensor = t;
    s.parallel.pipeline = p;
    s.parallel.virtual_stages = v;
    s.zero.stage = stage;
    return s;
}

}  // namespace

class TestRankLayout : public QObject {
    Q_OBJECT
private slots:
    // initialize_model_parallel's docstring: 16 GPUs, tensor 2, pipeline 4: tensor groups
    // [g0, g1], [g2, g3], ...; data-parallel groups [g0, g2], [g1, g3], [g4, g6], ...; pipeline
    // groups [g0, g4, g8, g12], [g1, g5, g9, g13], ...
    void megatron_docstring_example() {
        const Scenario s = layout(16, 2, 4);
        QCOMPARE(data_parallel_size(s), std::int64_t(2));
        QCOMPARE(rank_coordinates(s, 1), (RankCoordinates{1, 0, 0}));
        QCOMPARE(rank_coordinates(s, 2), (RankCoordinates{0, 1, 0}));
        QCOMPARE(rank_coordinates(s, 3), (RankCoordinates{1, 1, 0}));
        QCOMPARE(rank_coordinates(s, 4), (RankCoordinates{0, 0, 1}));
        QCOMPARE(rank_coordinates(s, 13), (RankCoordinates{1, 0, 3}));
        QCOMPARE(rank_coordinates(s, 15), (RankCoordinates{1, 1, 3}));
    }

    // Every rank gets its own coordinates, each inside t x d x p.
    void coordinates_cover_the_grid_once_data() {
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("p");
        QTest::newRow("384 TP4 PP12") << qint64(384) << qint64(4) << qint64(12);
        QTest::newRow("64 TP8 PP2") << qint64(64) << qint64(8) << qint64(2);
        QTest::newRow("8 TP1 PP1") << qint64(8) << qint64(1) << qint64(1);
        QTest::newRow("4096 TP2 PP16") << qint64(4096) << qint64(2) << qint64(16);
    }
    void coordinates_cover_the_grid_once() {
        QFETCH(qint64, gpus);
        QFETCH(qint64, t);
        QFETCH(qint64, p);
        const Scenario s = layout(gpus, t, p);
        const std::int64_t d = data_parallel_size(s);
        QCOMPARE(t * p * d, gpus);
        std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> seen;
        for (std::int64_t r = 0; r < gpus; ++r) {
            const RankCoordinates c = rank_coordinates(s, r);
            QVERIFY(c.tp >= 0 && c.tp < t && c.dp >= 0 && c.dp < d && c.pp >= 0 && c.pp < p);
            QVERIFY(seen.insert({c.tp, c.dp, c.pp}).second);
        }
    }

    void links_data() {
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("p");
        QTest::addColumn<qint64>("v");
        QTest::addColumn<GroupLink>("tensor");
        QTest::addColumn<GroupLink>("data");
        QTest::addColumn<GroupLink>("pipeline");
        // Stages are t d = 32 ranks (4 nodes) apart: every stage boundary crosses nodes; a
        // data-parallel group (ranks 4 apart) spans 4 nodes; tensor groups stay in a node.
        QTest::newRow("BLOOM-176B: 384 GPUs TP4 PP12 DP8")
            << qint64(384) << qint64(4) << qint64(12) << qint64(1) << GroupLink::IntraNode << GroupLink::InterNode << GroupLink::InterNode;
        QTest::newRow("16 GPUs TP8 PP1: the two replicas are two nodes")
            << qint64(16) << qint64(8) << qint64(1) << qint64(1) << GroupLink::IntraNode << GroupLink::InterNode << GroupLink::None;
        QTest::newRow("8 GPUs TP2 PP2 on one node: nothing crosses")
            << qint64(8) << qint64(2) << qint64(2) << qint64(1) << GroupLink::IntraNode << GroupLink::IntraNode << GroupLink::IntraNode;
        QTest::newRow("8 GPUs data parallel only")
            << qint64(8) << qint64(1) << qint64(1) << qint64(1) << GroupLink::None << GroupLink::IntraNode << GroupLink::None;
        QTest::newRow("16 GPUs TP8 PP2 interleaved: one replica, stages on two nodes")
            << qint64(16) << qint64(8) << qint64(2) << qint64(2) << GroupLink::IntraNode << GroupLink::None << GroupLink::InterNode;
        QTest::newRow("16 GPUs TP2 PP2 DP4: a stage fills a node, the replicas do not cross")
            << qint64(16) << qint64(2) << qint64(2) << qint64(1) << GroupLink::IntraNode << GroupLink::IntraNode << GroupLink::InterNode;
    }
    void links() {
        QFETCH(qint64, gpus);
        QFETCH(qint64, t);
        QFETCH(qint64, p);
        QFETCH(qint64, v);
        QFETCH(GroupLink, tensor);
        QFETCH(GroupLink, data);
        QFETCH(GroupLink, pipeline);
        const GroupLinks l = layout_links(layout(gpus, t, p, v));
        QCOMPARE(l.tensor, tensor);
        QCOMPARE(l.data, data);
        QCOMPARE(l.pipeline, pipeline);
    }

    // BLOOM-176B rank by rank: ranks 0-3 are one tensor group on node 0; rank 4 is the next
    // data-parallel replica; rank 32 the next stage, on node 4.
    void bloom_ranks() {
        const Scenario s = layout(384, 4, 12);
        QCOMPARE(s.cluster.nodes, std::int64_t(48));
        for (std::int64_t r = 0; r < 4; ++r) {
            QCOMPARE(rank_coordinates(s, r), (RankCoordinates{r, 0, 0}));
            QCOMPARE(node_of_rank(s, r), std::int64_t(0));
        }
        QCOMPARE(rank_coordinates(s, 4), (RankCoordinates{0, 1, 0}));
        QCOMPARE(rank_coordinates(s, 32), (RankCoordinates{0, 0, 1}));
        QCOMPARE(node_of_rank(s, 32), std::int64_t(4));
        QCOMPARE(rank_coordinates(s, 383), (RankCoordinates{3, 7, 11}));
        // The first and last stages have one neighbour each, across the network.
        QCOMPARE(rank_links(s, 0).pipeline, GroupLink::InterNode);
        QCOMPARE(rank_links(s, 383).pipeline, GroupLink::InterNode);
    }

    // Without virtual stages the pipeline is a line: on 8 GPUs TP1 PP8 (one GPU per stage, one
    // node) rank 0 sends to rank 1 only. With virtual stages the last stage feeds the first.
    void interleaved_pipeline_is_a_ring() {
        Scenario s = layout(16, 1, 16);
        QCOMPARE(rank_links(s, 0).pipeline, GroupLink::IntraNode);
        s.parallel.virtual_stages = 2;
        QCOMPARE(rank_links(s, 0).pipeline, GroupLink::InterNode);  // rank 15 is on node 1
    }

    // Which ranks share an all-to-all group (ulysses_group_ranks, expert_group_ranks), one row per
    // layout, named after the DeepSpeed function whose groups it reproduces.
    void all_to_all_groups_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("u");
        QTest::addColumn<qint64>("ep");
        QTest::addColumn<qint64>("rank");
        QTest::addColumn<QList<qint64>>("ulysses");
        QTest::addColumn<QList<qint64>>("expert");
        QTest::addColumn<GroupLink>("sequenceLink");
        QTest::addColumn<GroupLink>("expertLink");
        using L = QList<qint64>;
        // parallel_state_sp.py initialize_sequence_parallel: group i is ranks i*u .. (i+1)*u - 1.
        QTest::newRow("initialize_sequence_parallel: 16 GPUs, SP 8, rank 3")
            << "llama-3-8b" << qint64(16) << qint64(1) << qint64(8) << qint64(1) << qint64(3) << L{0, 1, 2, 3, 4, 5, 6, 7} << L{3}
            << GroupLink::IntraNode << GroupLink::None;
        QTest::newRow("initialize_sequence_parallel: 16 GPUs, SP 8, rank 9")
            << "llama-3-8b" << qint64(16) << qint64(1) << qint64(8) << qint64(1) << qint64(9) << L{8, 9, 10, 11, 12, 13, 14, 15} << L{9}
            << GroupLink::IntraNode << GroupLink::None;
        QTest::newRow("initialize_sequence_parallel: 16 GPUs, SP 4, rank 13")
            << "llama-3-8b" << qint64(16) << qint64(1) << qint64(4) << qint64(1) << qint64(13) << L{12, 13, 14, 15} << L{13}
            << GroupLink::IntraNode << GroupLink::None;
        QTest::newRow("initialize_sequence_parallel: 32 GPUs, SP 16 spans two nodes")
            << "llama-3-8b" << qint64(32) << qint64(1) << qint64(16) << qint64(1) << qint64(20)
            << L{16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31} << L{20} << GroupLink::InterNode << GroupLink::None;
        // groups.py _create_expert_and_data_parallel's docstring (legacy path, no model parallelism):
        // world 16, ep 2: expert_parallel_group [0, 1], [2, 3], ...
        QTest::newRow("_create_expert_and_data_parallel: 16 GPUs, EP 2, rank 3")
            << "mixtral-8x7b" << qint64(16) << qint64(1) << qint64(1) << qint64(2) << qint64(3) << L{3} << L{2, 3} << GroupLink::None
            << GroupLink::IntraNode;
        QTest::newRow("_create_expert_and_data_parallel: 16 GPUs, EP 8, rank 12")
            << "mixtral-8x7b" << qint64(16) << qint64(1) << qint64(1) << qint64(8) << qint64(12) << L{12} << L{8, 9, 10, 11, 12, 13, 14, 15}
            << GroupLink::None << GroupLink::IntraNode;
        // groups.py _get_expert_parallel_ranks' docstring (E + M + D): world 16, model degree 2,
        // expert degree 4: expert_parallel_group [0,2,4,6], [8,10,12,14], [1,3,5,7], [9,11,13,15].
        QTest::newRow("_get_expert_parallel_ranks: 16 GPUs, TP 2, EP 4, rank 10")
            << "mixtral-8x7b" << qint64(16) << qint64(2) << qint64(1) << qint64(4) << qint64(10) << L{10} << L{8, 10, 12, 14}
            << GroupLink::None << GroupLink::IntraNode;
        QTest::newRow("_get_expert_parallel_ranks: 16 GPUs, TP 2, EP 4, rank 5")
            << "mixtral-8x7b" << qint64(16) << qint64(2) << qint64(1) << qint64(4) << qint64(5) << L{5} << L{1, 3, 5, 7} << GroupLink::None
            << GroupLink::IntraNode;
        // TP 4 x EP 4 is 16 consecutive ranks: every expert group spans the two nodes.
        QTest::newRow("_get_expert_parallel_ranks: 32 GPUs, TP 4, EP 4, rank 1")
            << "mixtral-8x7b" << qint64(32) << qint64(4) << qint64(1) << qint64(4) << qint64(1) << L{1} << L{1, 5, 9, 13} << GroupLink::None
            << GroupLink::InterNode;
    }
    void all_to_all_groups() {
        QFETCH(QString, model);
        QFETCH(qint64, gpus);
        QFETCH(qint64, t);
        QFETCH(qint64, u);
        QFETCH(qint64, ep);
        QFETCH(qint64, rank);
        QFETCH(QList<qint64>, ulysses);
        QFETCH(QList<qint64>, expert);
        QFETCH(GroupLink, sequenceLink);
        QFETCH(GroupLink, expertLink);
        Scenario s = preset_scenario(model.toUtf8().constData(), "h100-80gb", gpus);
        s.zero.stage = 1;
        s.parallel.tensor = t;
        s.parallel.ulysses = u;
        s.parallel.expert = ep;
        validate_parallelism(s);
        const auto list = [](const std::vector<std::int64_t>& v) { return QList<qint64>(v.begin(), v.end()); };
        QCOMPARE(list(ulysses_group_ranks(s, rank)), ulysses);
        QCOMPARE(list(expert_group_ranks(s, rank)), expert);
        // Every member names the same group.
        for (qint64 r : ulysses) QCOMPARE(list(ulysses_group_ranks(s, r)), ulysses);
        for (qint64 r : expert) QCOMPARE(list(expert_group_ranks(s, r)), expert);
        const GroupLinks l = layout_links(s);
        QCOMPARE(l.sequence, sequenceLink);
        QCOMPARE(l.expert, expertLink);
        QCOMPARE(l.sequence, ulysses_link(s));
        QCOMPARE(l.expert == GroupLink::InterNode, !expert_group_inside_node(s));
    }

    void data_parallel_traffic_follows_the_stage() {
        QVERIFY(QByteArray(data_parallel_traffic(layout(8, 1, 1, 1, 0))).contains("all-reduce"));
        QVERIFY(QByteArray(data_parallel_traffic(layout(8, 1, 1, 1, 2))).contains("reduce-scatter"));
        QVERIFY(QByteArray(data_parallel_traffic(layout(8, 1, 1, 1, 3))).contains("parameter all-gathers"));
    }
};

ZP_TEST_APPLESS_MAIN(TestRankLayout)
#include "tst_rank_layout.moc"
