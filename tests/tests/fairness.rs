//! Fair admission: one session or one principal cannot take the whole pool
//! of live cells, and a departed client's cells can be disposed at once
//! (GA-1.5).

use codemode_runtime::{Exec, Limits};
use codemode_tests::*;
use serde_json::json;

const PARK: &str = "await yield_control(); return 'done'";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_at_its_quota_is_refused_while_other_sessions_still_start_cells_ga_1_5() {
    let limits = Limits { max_live_cells: 10, max_live_cells_per_session: 3, ..Limits::default() };
    let rt = runtime_with(limits).await;
    let greedy = rt.session("greedy").reply("r");
    let mut parked = Vec::new();
    for _ in 0..3 {
        let r = greedy.exec(Exec::code(PARK)).await.unwrap();
        assert_eq!(r.status(), "waiting", "exactly at the quota is admitted");
        parked.push(r.run_id().unwrap().to_owned());
    }
    let refused = greedy.exec(Exec::code("return 1")).await.unwrap();
    assert!(failure(&refused).1.starts_with("too many live code mode runs in this session (3)"), "{refused:?}");
    let other = rt.session("other").reply("r").exec(Exec::code("return 'other'")).await.unwrap();
    assert_eq!(value(&other), &json!("other"), "another session is not blocked");
    assert_eq!(rt.metrics().admission_rejections.get("session_quota"), Some(&1), "rejections are counted by reason");
    // An ended cell frees its slot in the session.
    assert_eq!(value(&greedy.wait(&parked[0]).await.unwrap()), &json!("done"));
    assert_eq!(value(&greedy.exec(Exec::code("return 2")).await.unwrap()), &json!(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_principal_at_its_quota_is_refused_across_its_sessions_but_not_others_ga_1_5() {
    let limits = Limits {
        max_live_cells: 20,
        max_live_cells_per_session: 10,
        max_live_cells_per_principal: 4,
        ..Limits::default()
    };
    let rt = runtime_with(limits).await;
    for i in 0..4 {
        let reply = rt.session(format!("alice/{i}")).for_principal("alice").reply("r");
        assert_eq!(reply.exec(Exec::code(PARK)).await.unwrap().status(), "waiting");
    }
    let fifth = rt.session("alice/4").for_principal("alice").reply("r").exec(Exec::code("return 1")).await.unwrap();
    assert!(failure(&fifth).1.starts_with("too many live code mode runs for this client (4"), "{fifth:?}");
    let bob = rt.session("bob/0").for_principal("bob").reply("r").exec(Exec::code("return 'bob'")).await.unwrap();
    assert_eq!(value(&bob), &json!("bob"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disposing_a_reply_ends_every_cell_it_started_and_no_other_ga_1_5() {
    let rt = runtime().await;
    let gone = rt.session("s").reply("gone");
    let stays = rt.session("s").reply("stays");
    let a = gone.exec(Exec::code(PARK)).await.unwrap();
    let _b = gone.exec(Exec::code(PARK)).await.unwrap();
    let c = stays.exec(Exec::code(PARK)).await.unwrap();
    assert_eq!(gone.dispose_all().await.unwrap(), 2);
    assert_eq!(rt.live_cells().await.unwrap(), 1);
    let late = gone.wait(a.run_id().unwrap()).await.unwrap();
    assert!(failure(&late).1.contains("disposed"), "{late:?}");
    assert_eq!(value(&stays.wait(c.run_id().unwrap()).await.unwrap()), &json!("done"));
    assert_eq!(gone.dispose_all().await.unwrap(), 0);
}
