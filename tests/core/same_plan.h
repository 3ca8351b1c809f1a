#pragma once
// The bounded search's plan against the exhaustive one's (SearchPruning::Exhaustive): what the
// search's bounds, memos and shared bars must leave as they are (core/search/recommender.h).
#include "core/search/recommender.h"

#include <QString>
#include <QTest>

// `all` (exhaustive) and `p` (bounded) show the same candidate for every setup (its layout, micro
// batch, recompute, buckets and ZeRO++ switches, to the step's bit), the same step for the plan
// and the same words (why, each rejection, each suggestion); the bounded one estimates no more.
// `what` names the search in a failure. The caller checks QTest::currentTestFailed() after it.
inline void expect_same_plan(const zp::Plan& all, const zp::Plan& p, const QString& what) {
    QCOMPARE(all.candidates_evaluated, p.candidates_evaluated);
    QVERIFY(p.candidates_estimated <= all.candidates_estimated);
    QCOMPARE(all.feasible, p.feasible);
    QCOMPARE(all.per_setup_feasible, p.per_setup_feasible);
    for (std::size_t k = 0; k < p.per_setup.size(); ++k) {
        const zp::Candidate &a = all.per_setup[k], &b = p.per_setup[k];
        QVERIFY2(a.parallel == b.parallel && a.micro_batch == b.micro_batch && a.checkpointing == b.checkpointing &&
                     a.zero.reduce_bucket_elems == b.zero.reduce_bucket_elems && a.zero.overlap_comm == b.zero.overlap_comm &&
                     zp::zeropp_switches(a.zero) == zp::zeropp_switches(b.zero) && a.step.seconds == b.step.seconds,
                 qPrintable(QStringLiteral("%1, setup %2: the bounded search chose another candidate").arg(what).arg(k)));
    }
    if (p.feasible) {
        QVERIFY(all.best.parallel == p.best.parallel);
        QCOMPARE(all.best.micro_batch, p.best.micro_batch);
        QCOMPARE(all.best.step.seconds, p.best.step.seconds);
    }
    // The same words: the choice, why it won and why each other setup lost.
    QCOMPARE(all.why, p.why);
    QCOMPARE(all.suggestions, p.suggestions);
    QCOMPARE(all.rejected.size(), p.rejected.size());
    for (std::size_t k = 0; k < p.rejected.size(); ++k) {
        QCOMPARE(all.rejected[k].setup, p.rejected[k].setup);
        QCOMPARE(all.rejected[k].reason, p.rejected[k].reason);
    }
}
