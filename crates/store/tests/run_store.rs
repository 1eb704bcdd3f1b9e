//! The `RunStore` contract, one suite for every backend.
//!
//! [`suite`] holds the cases, each a plain `async fn(Subject)` that knows
//! nothing of the backend; the `cases!` list below turns every one into a
//! sled test, and (feature `postgres`) runs them all on PostgreSQL.
//! Every case uses fresh random run ids and sessions, so it also holds on a
//! database other tests share.

use std::sync::Arc;

use codemode_store::SessionStore;
use codemode_store::runs::RunStore;

/// What a case runs against: two handles on one backend (a second
/// process, or a second task of one) and its session store.
pub(crate) struct Subject {
    /// The handle most calls go through.
    pub(crate) runs: Arc<dyn RunStore>,
    /// Another handle on the same runs: races and cross-handle wake-ups.
    pub(crate) other: Arc<dyn RunStore>,
    /// The sessions an `end` with writes commits to.
    pub(crate) sessions: SessionStore,
}

mod suite {
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use codemode_protocol::RunEnd;
    use codemode_store::StoredValue;
    use codemode_store::runs::{
        Claim, MAX_LIST_RUNS, RunFilter, RunMeta, RunStatus, RunStoreError, RunSummary, RunWrites, now_ms,
    };
    use codemode_store::{StoreError, runs::RunRecord};

    use super::Subject;

    const LONG: Duration = Duration::from_secs(30);
    /// Short enough to wait out, long enough to outlast the calls made
    /// while it is meant to hold.
    const SHORT: Duration = Duration::from_secs(1);

    fn hex(bytes: usize) -> String {
        let mut raw = vec![0u8; bytes];
        getrandom::fill(&mut raw).expect("randomness");
        raw.iter().map(|b| format!("{b:02x}")).collect()
    }

    fn meta_in(session: &str, created_ms: u64) -> RunMeta {
        RunMeta {
            run_id: format!("run_{}", hex(16)),
            session: session.to_owned(),
            reply: "reply-1".to_owned(),
            principal: Some("alice".to_owned()),
            title: Some("a title".to_owned()),
            created_ms,
        }
    }

    fn meta() -> RunMeta {
        meta_in(&format!("session-{}", hex(8)), now_ms())
    }

    async fn created(s: &Subject, owner: &str, lease: Duration) -> RunMeta {
        let m = meta();
        s.runs.create(&m, owner, lease).await.expect("create");
        m
    }

    async fn get(s: &Subject, run_id: &str) -> RunRecord {
        s.runs.get(run_id).await.expect("get").expect("the run exists")
    }

    fn value(json: &str) -> Option<StoredValue> {
        Some(StoredValue { json: json.to_owned(), network: false })
    }

    pub(crate) async fn a_created_run_is_running_owned_readable_and_cannot_be_created_twice(s: Subject) {
        let m = created(&s, "p1", LONG).await;
        let r = get(&s, &m.run_id).await;
        assert_eq!(r.meta, m);
        assert_eq!(r.status, RunStatus::Running);
        assert_eq!(r.owner.as_deref(), Some("p1"));
        assert!(r.lease_until_ms > now_ms() + 20_000, "lease runs about 30 s: {}", r.lease_until_ms);
        assert!(r.journal.is_empty() && !r.abort_requested);
        assert!(s.runs.create(&m, "p2", LONG).await.is_err(), "a second create of the same id");
        assert_eq!(get(&s, &m.run_id).await.owner.as_deref(), Some("p1"), "untouched by the failed create");
        assert!(s.other.get(&m.run_id).await.unwrap().is_some(), "visible through another handle");
    }

    pub(crate) async fn a_run_that_does_not_exist_reads_as_missing_everywhere(s: Subject) {
        let id = format!("run_{}", hex(16));
        assert!(s.runs.get(&id).await.unwrap().is_none());
        assert_eq!(s.runs.claim(&id, "p1", LONG).await.unwrap(), Claim::Missing);
        assert_eq!(s.runs.request_abort(&id).await.unwrap(), Claim::Missing);
        let saved = s.runs.save(&id, "p1", RunStatus::Parked, vec![1], None).await;
        assert!(matches!(saved, Err(RunStoreError::Missing { .. })), "{saved:?}");
        let renewed = s.runs.renew(&id, "p1", LONG).await;
        assert!(matches!(renewed, Err(RunStoreError::Missing { .. })), "{renewed:?}");
        s.runs.release(&id, "p1").await.expect("releasing nothing is a no-op");
    }

    pub(crate) async fn get_many_reads_the_runs_that_exist_with_their_whole_journals(s: Subject) {
        let (a, b) = (created(&s, "p1", LONG).await, created(&s, "p1", LONG).await);
        let v = s.runs.save(&a.run_id, "p1", RunStatus::Parked, b"first".to_vec(), Some(LONG)).await.unwrap();
        s.runs.append(&a.run_id, "p1", RunStatus::Parked, b"+more".to_vec(), Some(LONG), v).await.unwrap();
        let gone = format!("run_{}", hex(16));
        let mut many = s.other.get_many(&[b.run_id.clone(), gone, a.run_id.clone()]).await.unwrap();
        many.sort_by(|x, y| x.meta.run_id.cmp(&y.meta.run_id));
        let mut one = vec![get(&s, &a.run_id).await, get(&s, &b.run_id).await];
        one.sort_by(|x, y| x.meta.run_id.cmp(&y.meta.run_id));
        assert_eq!(many, one, "the same records as one get each, the missing one left out");
        assert_eq!(get(&s, &a.run_id).await.journal, b"first+more", "appended chunks included");
        assert!(s.runs.get_many(&[]).await.unwrap().is_empty());
    }

    pub(crate) async fn a_claim_takes_a_free_expired_or_own_lease_and_reports_a_held_one(s: Subject) {
        let m = created(&s, "p1", LONG).await;
        // Own: renewed, same owner.
        let Claim::Claimed(own) = s.runs.claim(&m.run_id, "p1", LONG).await.unwrap() else { panic!("own claim") };
        assert_eq!(own.owner.as_deref(), Some("p1"));
        // Held by another.
        match s.runs.claim(&m.run_id, "p2", LONG).await.unwrap() {
            Claim::Held { owner, until_ms } => {
                assert_eq!(owner, "p1");
                assert_eq!(until_ms, get(&s, &m.run_id).await.lease_until_ms);
            }
            other => panic!("expected held, got {other:?}"),
        }
        // Free after a release.
        s.runs.release(&m.run_id, "p1").await.unwrap();
        let Claim::Claimed(free) = s.runs.claim(&m.run_id, "p2", SHORT).await.unwrap() else { panic!("free claim") };
        assert_eq!(free.owner.as_deref(), Some("p2"));
        assert_eq!(free.meta, m, "the claim returns the stored record");
        // Expired: p2's short lease runs out, p3 takes it.
        assert!(matches!(s.runs.claim(&m.run_id, "p3", LONG).await.unwrap(), Claim::Held { .. }));
        tokio::time::sleep(SHORT + Duration::from_millis(100)).await;
        let Claim::Claimed(expired) = s.runs.claim(&m.run_id, "p3", LONG).await.unwrap() else {
            panic!("expired claim")
        };
        assert_eq!(expired.owner.as_deref(), Some("p3"));
        assert!(expired.lease_until_ms > now_ms() + 20_000);
    }

    /// GA-1.3: a run's idleness (its time-to-live) is measured from its
    /// last journal or status change; taking or renewing its lease is not
    /// one.
    pub(crate) async fn claims_and_renewals_leave_the_last_change_as_it_was(s: Subject) {
        let m = created(&s, "p1", LONG).await;
        s.runs.save(&m.run_id, "p1", RunStatus::Parked, b"j".to_vec(), None).await.unwrap();
        let before = get(&s, &m.run_id).await.updated_ms;
        tokio::time::sleep(Duration::from_millis(20)).await;
        let Claim::Claimed(claimed) = s.other.claim(&m.run_id, "p2", LONG).await.unwrap() else { panic!("claim") };
        assert_eq!(claimed.updated_ms, before, "as claimed");
        s.other.renew(&m.run_id, "p2", LONG).await.unwrap();
        s.other.release(&m.run_id, "p2").await.unwrap();
        assert_eq!(get(&s, &m.run_id).await.updated_ms, before, "as stored");
    }

    pub(crate) async fn a_lease_claim_answers_as_a_claim_without_reading_the_journal(s: Subject) {
        let m = created(&s, "p1", LONG).await;
        s.runs.save(&m.run_id, "p1", RunStatus::Parked, b"base".to_vec(), Some(LONG)).await.unwrap();
        let version = s.runs.append(&m.run_id, "p1", RunStatus::Parked, b"+chunk".to_vec(), None, 1).await.unwrap();
        let Claim::Claimed(own) = s.runs.claim_lease(&m.run_id, "p1", LONG).await.unwrap() else { panic!("claim") };
        assert_eq!((own.owner.as_deref(), own.version, own.status), (Some("p1"), version, RunStatus::Parked));
        assert!(own.journal.is_empty(), "the journal is not read");
        assert_eq!(get(&s, &m.run_id).await.journal, b"base+chunk", "nor changed");
        match s.runs.claim_lease(&m.run_id, "p2", LONG).await.unwrap() {
            Claim::Held { owner, .. } => assert_eq!(owner, "p1"),
            other => panic!("expected held, got {other:?}"),
        }
        let missing = format!("run_{}", hex(16));
        assert_eq!(s.runs.claim_lease(&missing, "p1", LONG).await.unwrap(), Claim::Missing);
        s.runs.end(&m.run_id, "p1", RunEnd::Aborted, Vec::new()).await.unwrap();
        assert_eq!(s.runs.claim_lease(&m.run_id, "p1", LONG).await.unwrap(), Claim::Ended(RunEnd::Aborted));
    }

    pub(crate) async fn renew_and_save_by_anyone_but_the_live_owner_lose_the_lease(s: Subject) {
        let m = created(&s, "p1", SHORT).await;
        fn lost<T>(r: &Result<T, RunStoreError>) -> bool {
            matches!(r, Err(RunStoreError::LeaseLost { .. }))
        }
        assert!(lost(&s.runs.renew(&m.run_id, "p2", LONG).await), "renew by a non-owner");
        assert!(lost(&s.runs.save(&m.run_id, "p2", RunStatus::Parked, vec![9], Some(LONG)).await));
        assert!(get(&s, &m.run_id).await.journal.is_empty(), "the refused save wrote nothing");
        // The owner's renew extends its lease past the short one.
        s.runs.renew(&m.run_id, "p1", LONG).await.expect("the owner renews");
        assert!(get(&s, &m.run_id).await.lease_until_ms > now_ms() + 20_000);
        // Once another process claimed an expired lease, the old owner is out.
        s.runs.renew(&m.run_id, "p1", SHORT).await.unwrap();
        tokio::time::sleep(SHORT + Duration::from_millis(100)).await;
        assert!(lost(&s.runs.renew(&m.run_id, "p1", LONG).await), "an expired lease is not held");
        assert!(matches!(s.runs.claim(&m.run_id, "p2", LONG).await.unwrap(), Claim::Claimed(_)));
        assert!(lost(&s.runs.save(&m.run_id, "p1", RunStatus::Running, vec![1], Some(LONG)).await));
        assert!(lost(&s.runs.end(&m.run_id, "p1", RunEnd::Completed, Vec::new()).await));
        assert_eq!(get(&s, &m.run_id).await.status, RunStatus::Running, "the old owner ended nothing");
    }

    pub(crate) async fn save_replaces_the_journal_bumps_the_version_and_can_hand_the_run_off(s: Subject) {
        let m = created(&s, "p1", LONG).await;
        let v1 = s.runs.save(&m.run_id, "p1", RunStatus::Running, b"one".to_vec(), Some(LONG)).await.unwrap();
        let v2 = s.runs.save(&m.run_id, "p1", RunStatus::Parked, b"two".to_vec(), Some(LONG)).await.unwrap();
        assert!(v2 > v1, "{v1} then {v2}");
        let r = get(&s, &m.run_id).await;
        assert_eq!((r.journal.as_slice(), r.status, r.version), (&b"two"[..], RunStatus::Parked, v2));
        assert_eq!(r.owner.as_deref(), Some("p1"));
        // Hand-off: saved parked with the lease released.
        let v3 = s.runs.save(&m.run_id, "p1", RunStatus::Parked, b"three".to_vec(), None).await.unwrap();
        let r = get(&s, &m.run_id).await;
        assert_eq!((r.owner, r.lease_until_ms, r.version), (None, 0, v3));
        assert_eq!(r.journal, b"three");
        let Claim::Claimed(taken) = s.other.claim(&m.run_id, "p2", LONG).await.unwrap() else { panic!("hand-off") };
        assert_eq!(taken.journal, b"three", "the claimer resumes from the saved journal");
        assert_eq!(taken.status, RunStatus::Parked);
    }

    pub(crate) async fn release_clears_only_the_owners_lease_and_keeps_the_journal(s: Subject) {
        let m = created(&s, "p1", LONG).await;
        s.runs.save(&m.run_id, "p1", RunStatus::Parked, b"j".to_vec(), Some(LONG)).await.unwrap();
        s.runs.release(&m.run_id, "p2").await.expect("not held by p2: a no-op");
        assert_eq!(get(&s, &m.run_id).await.owner.as_deref(), Some("p1"));
        s.runs.release(&m.run_id, "p1").await.unwrap();
        let r = get(&s, &m.run_id).await;
        assert_eq!((r.owner, r.lease_until_ms), (None, 0));
        assert_eq!((r.journal.as_slice(), r.status), (&b"j"[..], RunStatus::Parked));
    }

    pub(crate) async fn an_end_drops_the_journal_keeps_the_record_and_refuses_a_non_owner(s: Subject) {
        let m = created(&s, "p1", LONG).await;
        s.runs.save(&m.run_id, "p1", RunStatus::Running, b"journal".to_vec(), Some(LONG)).await.unwrap();
        let refused = s.runs.end(&m.run_id, "p2", RunEnd::Completed, Vec::new()).await;
        assert!(matches!(refused, Err(RunStoreError::LeaseLost { .. })), "{refused:?}");
        s.runs.end(&m.run_id, "p1", RunEnd::Failed, Vec::new()).await.unwrap();
        let r = get(&s, &m.run_id).await;
        assert_eq!(r.status, RunStatus::Ended(RunEnd::Failed));
        assert!(r.journal.is_empty() && r.owner.is_none() && r.lease_until_ms == 0, "{r:?}");
        assert_eq!(r.meta, m);
        assert_eq!(s.runs.claim(&m.run_id, "p2", LONG).await.unwrap(), Claim::Ended(RunEnd::Failed));
        let again = s.runs.end(&m.run_id, "p1", RunEnd::Completed, Vec::new()).await;
        assert!(again.is_err(), "an ended run ends once: {again:?}");
        assert_eq!(get(&s, &m.run_id).await.status, RunStatus::Ended(RunEnd::Failed));
    }

    pub(crate) async fn an_end_with_writes_commits_them_to_the_runs_session_together(s: Subject) {
        let m = created(&s, "p1", LONG).await;
        s.sessions.commit(&m.session, vec![("old".into(), value("1"))]).await.unwrap();
        let writes: RunWrites = vec![("answer".into(), value("42")), ("old".into(), None)];
        s.runs.end(&m.run_id, "p1", RunEnd::Completed, writes).await.unwrap();
        assert_eq!(get(&s, &m.run_id).await.status, RunStatus::Ended(RunEnd::Completed));
        assert_eq!(s.sessions.load(&m.session, "answer").await.unwrap(), value("42"));
        assert_eq!(s.sessions.load(&m.session, "old").await.unwrap(), None, "a `None` write deletes");
        // A non-owner's end with writes writes nothing either.
        let n = created(&s, "p1", LONG).await;
        let refused = s.runs.end(&n.run_id, "p2", RunEnd::Completed, vec![("k".into(), value("1"))]).await;
        assert!(matches!(refused, Err(RunStoreError::LeaseLost { .. })), "{refused:?}");
        assert_eq!(s.sessions.load(&n.session, "k").await.unwrap(), None);
        assert_eq!(get(&s, &n.run_id).await.status, RunStatus::Running);
    }

    pub(crate) async fn an_end_whose_writes_overflow_the_session_writes_nothing_and_keeps_the_journal(s: Subject) {
        let m = created(&s, "p1", LONG).await;
        s.runs.save(&m.run_id, "p1", RunStatus::Running, b"keep me".to_vec(), Some(LONG)).await.unwrap();
        // Five values just under 256 KiB each: over the 1 MiB session total.
        let big = format!("\"{}\"", "x".repeat(255 * 1024));
        let writes: RunWrites = (0..5).map(|i| (format!("k{i}"), value(&big))).collect();
        let refused = s.runs.end(&m.run_id, "p1", RunEnd::Completed, writes).await;
        assert!(matches!(refused, Err(RunStoreError::Store(StoreError::SessionFull(1)))), "{refused:?}");
        let r = get(&s, &m.run_id).await;
        assert_eq!((r.status, r.journal.as_slice()), (RunStatus::Running, &b"keep me"[..]), "not ended");
        assert_eq!(r.owner.as_deref(), Some("p1"));
        for i in 0..5 {
            assert_eq!(s.sessions.load(&m.session, &format!("k{i}")).await.unwrap(), None, "k{i} not written");
        }
        // Exactly at the limit fits: 4 × 256 KiB of JSON.
        let at = format!("\"{}\"", "x".repeat(256 * 1024 - 2));
        let writes: RunWrites = (0..4).map(|i| (format!("k{i}"), value(&at))).collect();
        s.runs.end(&m.run_id, "p1", RunEnd::Completed, writes).await.expect("1 MiB exactly fits");
        assert!(s.sessions.load(&m.session, "k3").await.unwrap().is_some());
        // The session store counts what the end wrote: the session is full.
        let more = s.sessions.commit(&m.session, vec![("one-more".into(), value("1"))]).await;
        assert!(matches!(more, Err(StoreError::SessionFull(1))), "{more:?}");
    }

    pub(crate) async fn an_abort_ends_a_released_parked_run_at_once_and_marks_a_held_one(s: Subject) {
        // Parked and handed off: nobody would see a mark, so it ends now.
        let parked = created(&s, "p1", LONG).await;
        s.runs.save(&parked.run_id, "p1", RunStatus::Parked, b"j".to_vec(), None).await.unwrap();
        assert_eq!(s.runs.request_abort(&parked.run_id).await.unwrap(), Claim::Ended(RunEnd::Aborted));
        let r = get(&s, &parked.run_id).await;
        assert_eq!(r.status, RunStatus::Ended(RunEnd::Aborted));
        assert!(r.journal.is_empty());
        assert_eq!(s.runs.request_abort(&parked.run_id).await.unwrap(), Claim::Ended(RunEnd::Aborted));
        // Held: marked for its owner, which ends it.
        let held = created(&s, "p1", LONG).await;
        let Claim::Held { owner, .. } = s.runs.request_abort(&held.run_id).await.unwrap() else { panic!("held") };
        assert_eq!(owner, "p1");
        let r = get(&s, &held.run_id).await;
        assert!(r.abort_requested);
        assert_eq!(r.status, RunStatus::Running);
        // A claimer of an expired, marked run sees the mark.
        let expiring = created(&s, "p1", SHORT).await;
        s.runs.save(&expiring.run_id, "p1", RunStatus::Parked, b"j".to_vec(), Some(SHORT)).await.unwrap();
        assert!(matches!(s.runs.request_abort(&expiring.run_id).await.unwrap(), Claim::Held { .. }));
        tokio::time::sleep(SHORT + Duration::from_millis(100)).await;
        let Claim::Claimed(r) = s.runs.claim(&expiring.run_id, "p2", LONG).await.unwrap() else { panic!("claim") };
        assert!(r.abort_requested, "the claimer ends it as aborted");
        s.runs.end(&expiring.run_id, "p2", RunEnd::Aborted, Vec::new()).await.unwrap();
    }

    /// How long `changed` took to resolve when `act` ran 100 ms after it
    /// started waiting (through the other handle).
    async fn woken_after(s: &Subject, run_id: &str, act: impl Future<Output = ()>) -> Duration {
        let other = Arc::clone(&s.other);
        let id = run_id.to_owned();
        let waiter = tokio::spawn(async move {
            let started = Instant::now();
            other.changed(&id, Duration::from_secs(20)).await.unwrap();
            started.elapsed()
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        act.await;
        tokio::time::timeout(Duration::from_secs(30), waiter).await.expect("resolves").expect("waiter runs")
    }

    pub(crate) async fn changed_resolves_on_save_release_end_and_abort_and_times_out_otherwise(s: Subject) {
        let quick = Duration::from_secs(10);
        let m = created(&s, "p1", LONG).await;
        let t = woken_after(&s, &m.run_id, async {
            s.runs.save(&m.run_id, "p1", RunStatus::Parked, vec![1], Some(LONG)).await.unwrap();
        })
        .await;
        assert!(t < quick, "save woke it after {t:?}");
        let t = woken_after(&s, &m.run_id, async { s.runs.release(&m.run_id, "p1").await.unwrap() }).await;
        assert!(t < quick, "release woke it after {t:?}");
        let Claim::Claimed(_) = s.runs.claim(&m.run_id, "p1", LONG).await.unwrap() else { panic!("reclaim") };
        let t = woken_after(&s, &m.run_id, async {
            assert!(matches!(s.runs.request_abort(&m.run_id).await.unwrap(), Claim::Held { .. }));
        })
        .await;
        assert!(t < quick, "an abort request woke it after {t:?}");
        let t = woken_after(&s, &m.run_id, async {
            s.runs.end(&m.run_id, "p1", RunEnd::Aborted, Vec::new()).await.unwrap();
        })
        .await;
        assert!(t < quick, "end woke it after {t:?}");
        // Nothing happens: it waits out its timeout, and another run's
        // change does not wake it.
        let n = created(&s, "p1", LONG).await;
        let o = created(&s, "p1", LONG).await;
        let started = Instant::now();
        let quiet = s.runs.changed(&n.run_id, Duration::from_millis(300));
        s.runs.save(&o.run_id, "p1", RunStatus::Parked, vec![], None).await.unwrap();
        quiet.await.unwrap();
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(300) && waited < quick, "timed out after {waited:?}");
    }

    pub(crate) async fn two_handles_racing_to_claim_a_free_run_let_exactly_one_win(s: Subject) {
        let m = created(&s, "creator", LONG).await;
        s.runs.save(&m.run_id, "creator", RunStatus::Parked, b"j".to_vec(), None).await.unwrap();
        let mut racers = Vec::new();
        for i in 0..16 {
            let handle = if i % 2 == 0 { Arc::clone(&s.runs) } else { Arc::clone(&s.other) };
            let id = m.run_id.clone();
            racers
                .push(tokio::spawn(async move { (i, handle.claim(&id, &format!("racer-{i}"), LONG).await.unwrap()) }));
        }
        let mut winners = Vec::new();
        let mut held_by = Vec::new();
        for racer in racers {
            match racer.await.unwrap() {
                (i, Claim::Claimed(_)) => winners.push(format!("racer-{i}")),
                (_, Claim::Held { owner, .. }) => held_by.push(owner),
                (_, other) => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(winners.len(), 1, "exactly one wins: {winners:?}");
        assert!(held_by.iter().all(|o| *o == winners[0]), "the others see the winner: {held_by:?}");
        assert_eq!(get(&s, &m.run_id).await.owner, Some(winners[0].clone()));
    }

    pub(crate) async fn list_filters_by_status_and_session_puts_the_newest_first_and_is_bounded(s: Subject) {
        let session = format!("session-{}", hex(8));
        let base = now_ms();
        let mut ids = Vec::new();
        for i in 0..3 {
            let m = meta_in(&session, base + i);
            s.runs.create(&m, "p1", LONG).await.unwrap();
            ids.push(m.run_id);
        }
        s.runs.save(&ids[1], "p1", RunStatus::Parked, b"12345".to_vec(), None).await.unwrap();
        s.runs.end(&ids[2], "p1", RunEnd::Completed, Vec::new()).await.unwrap();
        let elsewhere = created(&s, "p1", LONG).await;
        let filter = |status: Option<RunStatus>, limit| RunFilter {
            status,
            session: Some(session.clone()),
            limit,
            ..RunFilter::default()
        };
        let all = s.runs.list(filter(None, None)).await.unwrap();
        let listed: Vec<_> = all.iter().map(|r| r.meta.run_id.clone()).collect();
        assert_eq!(listed, vec![ids[2].clone(), ids[1].clone(), ids[0].clone()], "newest first, this session only");
        let parked = &all[1];
        assert_eq!((parked.status.clone(), parked.journal_bytes, parked.owner.clone()), (RunStatus::Parked, 5, None));
        assert_eq!(parked.meta.title.as_deref(), Some("a title"));
        for (status, expected) in [
            (RunStatus::Parked, &ids[1]),
            (RunStatus::Ended(RunEnd::Completed), &ids[2]),
            (RunStatus::Running, &ids[0]),
        ] {
            let listed = s.runs.list(filter(Some(status.clone()), None)).await.unwrap();
            assert_eq!(listed.iter().map(|r| &r.meta.run_id).collect::<Vec<_>>(), vec![expected], "{status}");
        }
        let two = s.runs.list(filter(None, Some(2))).await.unwrap();
        assert_eq!(two.iter().map(|r| &r.meta.run_id).collect::<Vec<_>>(), vec![&ids[2], &ids[1]]);
        assert!(s.runs.list(filter(None, Some(0))).await.unwrap().is_empty());
        let everywhere = s.runs.list(RunFilter::default()).await.unwrap();
        assert!(everywhere.iter().any(|r| r.meta.run_id == elsewhere.run_id), "no filter: every session");
        assert!(everywhere.len() <= MAX_LIST_RUNS);
    }

    /// An operator pages through a principal's runs: each page starts after
    /// the last run of the one before, and the pages together are the
    /// principal's runs, newest first, each once.
    pub(crate) async fn list_filters_by_principal_and_pages_after_a_cursor(s: Subject) {
        let session = format!("session-{}", hex(8));
        let principal = format!("p-{}", hex(6));
        let base = now_ms();
        let mut ids = Vec::new();
        for i in 0..5 {
            let m = RunMeta { principal: Some(principal.clone()), ..meta_in(&session, base + i / 2) };
            s.runs.create(&m, "p1", LONG).await.unwrap();
            ids.push((m.created_ms, m.run_id));
        }
        // Another principal's run in the same session is never listed.
        s.runs.create(&meta_in(&session, base + 10), "p1", LONG).await.unwrap();
        ids.sort();
        ids.reverse();
        let mut before = None;
        let mut seen = Vec::new();
        loop {
            let filter = RunFilter {
                principal: Some(principal.clone()),
                before: before.clone(),
                limit: Some(2),
                ..RunFilter::default()
            };
            let page = s.runs.list(filter).await.unwrap();
            if page.is_empty() {
                break;
            }
            assert!(page.len() <= 2);
            let last = page.last().unwrap();
            before = Some((last.meta.created_ms, last.meta.run_id.clone()));
            seen.extend(page.into_iter().map(|r| (r.meta.created_ms, r.meta.run_id)));
        }
        assert_eq!(seen, ids, "every run of the principal once, newest first (same-millisecond runs by id)");
    }

    pub(crate) async fn list_returns_at_most_a_thousand_runs_whatever_the_limit(s: Subject) {
        let session = format!("session-{}", hex(8));
        let base = now_ms();
        for i in 0..=MAX_LIST_RUNS as u64 {
            s.runs.create(&meta_in(&session, base + i), "p1", LONG).await.unwrap();
        }
        let filter = RunFilter { session: Some(session), limit: Some(5_000), ..RunFilter::default() };
        let listed = s.runs.list(filter).await.unwrap();
        assert_eq!(listed.len(), MAX_LIST_RUNS);
        assert_eq!(listed[0].meta.created_ms, base + MAX_LIST_RUNS as u64, "the newest thousand");
    }

    pub(crate) async fn prune_deletes_only_ended_runs_last_changed_before_the_cutoff(s: Subject) {
        let old = created(&s, "p1", LONG).await;
        s.runs.end(&old.run_id, "p1", RunEnd::Completed, Vec::new()).await.unwrap();
        let parked = created(&s, "p1", LONG).await;
        s.runs.save(&parked.run_id, "p1", RunStatus::Parked, b"j".to_vec(), None).await.unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
        let cutoff = now_ms();
        tokio::time::sleep(Duration::from_millis(20)).await;
        let recent = created(&s, "p1", LONG).await;
        s.runs.end(&recent.run_id, "p1", RunEnd::Failed, Vec::new()).await.unwrap();
        let pruned = s.runs.prune(cutoff, usize::MAX).await.unwrap();
        assert!(pruned >= 1, "at least the old ended run: {pruned}");
        assert!(s.runs.get(&old.run_id).await.unwrap().is_none(), "old and ended: deleted");
        assert!(s.runs.get(&parked.run_id).await.unwrap().is_some(), "not ended: kept however old");
        assert!(s.runs.get(&recent.run_id).await.unwrap().is_some(), "ended after the cutoff: kept");
        let session = RunFilter { session: Some(old.session.clone()), ..RunFilter::default() };
        assert!(s.runs.list(session).await.unwrap().is_empty(), "gone from the list too");
    }

    /// What ended runs leave is bounded by count as well as by age: past
    /// the newest `keep` (by last change) ended runs go, live ones never.
    pub(crate) async fn prune_keeps_at_most_the_newest_ended_runs_and_every_live_one(s: Subject) {
        let session = format!("session-{}", hex(8));
        let mut ended = Vec::new();
        for _ in 0..5 {
            let m = RunMeta { session: session.clone(), ..meta_in(&session, now_ms()) };
            s.runs.create(&m, "p1", LONG).await.unwrap();
            s.runs.end(&m.run_id, "p1", RunEnd::Completed, Vec::new()).await.unwrap();
            ended.push(m.run_id);
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let live = RunMeta { session: session.clone(), ..meta_in(&session, now_ms()) };
        s.runs.create(&live, "p1", LONG).await.unwrap();
        // Other tests' ended runs may share the store: keep every one but
        // the newest two of this session's, counted across the store.
        let all_ended = |runs: Vec<RunSummary>| runs.into_iter().filter(|r| !r.status.is_live()).count();
        let everyone = all_ended(s.runs.list(RunFilter::default()).await.unwrap());
        s.runs.prune(0, everyone - 3).await.unwrap();
        for (i, run_id) in ended.iter().enumerate() {
            let kept = s.runs.get(run_id).await.unwrap().is_some();
            assert_eq!(kept, i >= 3, "ended run {i} of 5 (the oldest first)");
        }
        assert!(s.runs.get(&live.run_id).await.unwrap().is_some(), "a live run is never pruned");
    }

    pub(crate) async fn appends_read_back_after_the_stored_journal_in_order_and_a_save_replaces_them_all(s: Subject) {
        let m = created(&s, "p1", LONG).await;
        assert_eq!(s.runs.save(&m.run_id, "p1", RunStatus::Parked, b"head|".to_vec(), Some(LONG)).await.unwrap(), 1);
        let mut expected = b"head|".to_vec();
        for (i, chunk) in [&b"one|"[..], b"", b"two|", &[0u8, 255, 7]].into_iter().enumerate() {
            let after = i as u64 + 1;
            let v = s.runs.append(&m.run_id, "p1", RunStatus::Parked, chunk.to_vec(), Some(LONG), after).await.unwrap();
            assert_eq!(v, i as u64 + 2, "every write bumps the version, an empty one too");
            expected.extend_from_slice(chunk);
            assert_eq!(get(&s, &m.run_id).await.journal, expected, "after append {i}");
        }
        // The other handle (another process) reads the same bytes.
        assert_eq!(s.other.get(&m.run_id).await.unwrap().unwrap().journal, expected);
        let session = RunFilter { session: Some(m.session.clone()), ..RunFilter::default() };
        assert_eq!(s.runs.list(session.clone()).await.unwrap()[0].journal_bytes, expected.len() as u64);
        // A claim reads the whole journal too: it is what a resume replays.
        s.runs.release(&m.run_id, "p1").await.unwrap();
        let Claim::Claimed(claimed) = s.other.claim(&m.run_id, "p2", LONG).await.unwrap() else { panic!() };
        assert_eq!(claimed.journal, expected);
        // A save replaces the journal and every appended chunk.
        let v = s.other.save(&m.run_id, "p2", RunStatus::Parked, b"new".to_vec(), Some(LONG)).await.unwrap();
        assert_eq!(get(&s, &m.run_id).await.journal, b"new");
        s.other.append(&m.run_id, "p2", RunStatus::Running, b"+1".to_vec(), Some(LONG), v).await.unwrap();
        let r = get(&s, &m.run_id).await;
        assert_eq!((r.journal.as_slice(), r.status), (&b"new+1"[..], RunStatus::Running));
        assert_eq!(s.runs.list(session).await.unwrap()[0].journal_bytes, 5);
    }

    pub(crate) async fn usage_lists_a_sessions_and_a_principals_runs_not_ended_with_their_journal_sizes(s: Subject) {
        let (session, principal) = (format!("session-{}", hex(8)), format!("principal-{}", hex(8)));
        let meta_of = |session: &str| RunMeta { principal: Some(principal.clone()), ..meta_in(session, now_ms()) };
        let runs: Vec<RunMeta> = (0..3).map(|_| meta_of(&session)).collect();
        let elsewhere = meta_of(&format!("session-{}", hex(8)));
        for m in runs.iter().chain([&elsewhere]) {
            s.runs.create(m, "p1", LONG).await.unwrap();
        }
        s.runs.append(&runs[0].run_id, "p1", RunStatus::Parked, vec![1; 100], Some(LONG), 0).await.unwrap();
        s.runs.append(&runs[0].run_id, "p1", RunStatus::Parked, vec![2; 50], Some(LONG), 1).await.unwrap();
        s.runs.end(&runs[2].run_id, "p1", RunEnd::Completed, Vec::new()).await.unwrap();
        for handle in [&s.runs, &s.other] {
            let mut u = handle.usage(&session, Some(&principal), 10).await.unwrap();
            u.session.sort();
            let mut want = vec![(runs[0].run_id.clone(), 150), (runs[1].run_id.clone(), 0)];
            want.sort();
            assert_eq!(u.session, want, "the ended run is not counted");
            assert_eq!(u.principal.len(), 3, "across the principal's sessions");
            assert_eq!(handle.usage(&session, Some(&principal), 1).await.unwrap().session.len(), 1, "limited");
            assert!(handle.usage(&session, None, 10).await.unwrap().principal.is_empty());
        }
    }

    /// GA-1.3: a write retried after its answer was lost (the connection
    /// cut after the commit) lands once; a create retried the same way
    /// says the run exists.
    pub(crate) async fn an_append_retried_after_it_landed_is_not_added_twice_and_a_second_create_says_exists(
        s: Subject,
    ) {
        let m = created(&s, "p1", LONG).await;
        let again = s.runs.create(&m, "p1", LONG).await;
        assert!(matches!(again, Err(RunStoreError::Exists { .. })), "{again:?}");
        let v = s.runs.append(&m.run_id, "p1", RunStatus::Parked, b"once|".to_vec(), Some(LONG), 0).await.unwrap();
        assert_eq!(v, 1);
        let retried = s.runs.append(&m.run_id, "p1", RunStatus::Parked, b"once|".to_vec(), Some(LONG), 0).await;
        assert!(matches!(retried, Err(RunStoreError::Stale { stored: 1, .. })), "{retried:?}");
        let r = get(&s, &m.run_id).await;
        assert_eq!((r.journal.as_slice(), r.version), (&b"once|"[..], 1), "the chunk is stored once");
        // Continuing the version it is at, the next append lands.
        s.runs.append(&m.run_id, "p1", RunStatus::Parked, b"twice".to_vec(), Some(LONG), 1).await.unwrap();
        assert_eq!(get(&s, &m.run_id).await.journal, b"once|twice");
        // Not held: the lease is what is refused, whatever the version.
        let other = s.other.append(&m.run_id, "p2", RunStatus::Parked, b"x".to_vec(), Some(LONG), 0).await;
        assert!(matches!(other, Err(RunStoreError::LeaseLost { .. })), "{other:?}");
    }

    pub(crate) async fn an_append_by_anyone_but_the_live_owner_or_after_the_end_changes_nothing(s: Subject) {
        let m = created(&s, "p1", LONG).await;
        s.runs.append(&m.run_id, "p1", RunStatus::Parked, b"a".to_vec(), Some(LONG), 0).await.unwrap();
        let lost = s.other.append(&m.run_id, "p2", RunStatus::Parked, b"b".to_vec(), Some(LONG), 1).await;
        assert!(matches!(lost, Err(RunStoreError::LeaseLost { .. })), "{lost:?}");
        let missing = s.runs.append("run_nope", "p1", RunStatus::Parked, b"b".to_vec(), None, 1).await;
        assert!(matches!(missing, Err(RunStoreError::Missing { .. })), "{missing:?}");
        let ended = s.runs.append(&m.run_id, "p1", RunStatus::Ended(RunEnd::Completed), b"c".to_vec(), None, 1).await;
        assert!(ended.is_err(), "append is not an end");
        let r = get(&s, &m.run_id).await;
        assert_eq!((r.journal.as_slice(), r.version), (&b"a"[..], 1), "nothing of the refused appends landed");
        s.runs.end(&m.run_id, "p1", RunEnd::Completed, Vec::new()).await.unwrap();
        assert!(get(&s, &m.run_id).await.journal.is_empty(), "an end drops the appended chunks");
        let after = s.runs.append(&m.run_id, "p1", RunStatus::Parked, b"d".to_vec(), Some(LONG), 2).await;
        assert!(matches!(after, Err(RunStoreError::LeaseLost { .. })), "{after:?}");
        assert!(get(&s, &m.run_id).await.journal.is_empty());
    }
}

/// Every case: a sled test each, and one PostgreSQL test running them all.
macro_rules! cases {
    ($($name:ident),* $(,)?) => {
        /// The suite on sled: one temporary database per case.
        mod on_sled {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let (subject, _dir) = super::sled_subject(stringify!($name)).await;
                    super::suite::$name(subject).await;
                }
            )*
        }

        /// Runs every case on `subject()`'s backend, in order.
        #[cfg(feature = "postgres")]
        async fn every_case(subject: impl AsyncFn() -> Subject) {
            $(
                eprintln!("run store suite: {}", stringify!($name));
                suite::$name(subject().await).await;
            )*
        }
    };
}

cases!(
    a_created_run_is_running_owned_readable_and_cannot_be_created_twice,
    a_run_that_does_not_exist_reads_as_missing_everywhere,
    get_many_reads_the_runs_that_exist_with_their_whole_journals,
    a_claim_takes_a_free_expired_or_own_lease_and_reports_a_held_one,
    a_lease_claim_answers_as_a_claim_without_reading_the_journal,
    renew_and_save_by_anyone_but_the_live_owner_lose_the_lease,
    save_replaces_the_journal_bumps_the_version_and_can_hand_the_run_off,
    release_clears_only_the_owners_lease_and_keeps_the_journal,
    an_end_drops_the_journal_keeps_the_record_and_refuses_a_non_owner,
    an_end_with_writes_commits_them_to_the_runs_session_together,
    an_end_whose_writes_overflow_the_session_writes_nothing_and_keeps_the_journal,
    an_abort_ends_a_released_parked_run_at_once_and_marks_a_held_one,
    changed_resolves_on_save_release_end_and_abort_and_times_out_otherwise,
    two_handles_racing_to_claim_a_free_run_let_exactly_one_win,
    list_filters_by_status_and_session_puts_the_newest_first_and_is_bounded,
    list_returns_at_most_a_thousand_runs_whatever_the_limit,
    list_filters_by_principal_and_pages_after_a_cursor,
    prune_deletes_only_ended_runs_last_changed_before_the_cutoff,
    appends_read_back_after_the_stored_journal_in_order_and_a_save_replaces_them_all,
    an_append_by_anyone_but_the_live_owner_or_after_the_end_changes_nothing,
    an_append_retried_after_it_landed_is_not_added_twice_and_a_second_create_says_exists,
    claims_and_renewals_leave_the_last_change_as_it_was,
    prune_keeps_at_most_the_newest_ended_runs_and_every_live_one,
    usage_lists_a_sessions_and_a_principals_runs_not_ended_with_their_journal_sizes,
);

/// Deletes a test's database directory when the test ends.
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh sled session store (its actor started, for `end` with writes)
/// and two `SledRuns` handles on it: one making its writes
/// process-durable (the run log), the other machine-durable (flushed), so
/// the suite holds in both modes.
async fn sled_subject(case: &str) -> (Subject, TempDir) {
    let dir = std::env::temp_dir().join(format!("codemode-run-store-{case}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let name = format!("run-store-suite-{case}");
    let sessions = SessionStore::open(Some(&dir), codemode_store::StoreLimits::default(), name).expect("open");
    sessions.start_actor(None).await.expect("store actor");
    let runs = codemode_store::runs::SledRuns::open(&sessions)
        .and_then(|r| r.with_durability(codemode_store::runs::Durability::Process))
        .expect("runs");
    let other = codemode_store::runs::SledRuns::open(&sessions).expect("runs");
    (Subject { runs: Arc::new(runs), other: Arc::new(other), sessions }, TempDir(dir))
}

/// The suite on PostgreSQL, in a fresh database on the server
/// `CODEMODE_TEST_POSTGRES_URL` names (`./scripts/test.sh` starts one);
/// without it the test fails, saying so: it never passes without a
/// database.
#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_run_store_suite_holds_on_postgresql() {
    every_case(async || {
        let url = codemode_store::postgres::test_database().await;
        let pg = codemode_store::Pg::connect(&url, 4).await.expect("connect");
        let sessions =
            SessionStore::postgres(pg.clone(), codemode_store::StoreLimits::default(), "run-store-suite".into());
        let other_sessions =
            SessionStore::postgres(pg, codemode_store::StoreLimits::default(), "run-store-suite-other".into());
        Subject {
            runs: Arc::new(codemode_store::runs::PgRuns::start(&sessions).await.expect("runs")),
            other: Arc::new(codemode_store::runs::PgRuns::start(&other_sessions).await.expect("runs")),
            sessions,
        }
    })
    .await;
}

/// An append writes its chunk before the record that counts it: pruning
/// between the two must not delete that chunk (a journal then misses it
/// and the run cannot be resumed). Chunks of ended runs still go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pruning_keeps_a_live_runs_chunk_its_record_does_not_count_yet_and_drops_an_ended_runs() {
    use codemode_protocol::RunEnd;
    use codemode_store::runs::{RUN_CHUNKS_TREE, RunMeta, RunStatus, now_ms};
    let (s, _dir) = sled_subject("prune-race").await;
    let meta = RunMeta {
        run_id: "run_prune_race".into(),
        session: "s".into(),
        reply: "r".into(),
        principal: None,
        title: None,
        created_ms: now_ms(),
    };
    let lease = std::time::Duration::from_secs(30);
    s.runs.create(&meta, "me", lease).await.unwrap();
    s.runs.append(&meta.run_id, "me", RunStatus::Parked, b"first".to_vec(), Some(lease), 0).await.unwrap();
    // The next append's chunk, written, its record not yet swapped.
    let chunks = s.sessions.tree(RUN_CHUNKS_TREE).unwrap();
    let mut key = meta.run_id.as_bytes().to_vec();
    key.push(0);
    key.extend_from_slice(&1u32.to_be_bytes());
    chunks.insert(&key, b"second".as_slice()).unwrap();
    s.runs.prune(now_ms() + 1, usize::MAX).await.unwrap();
    assert!(chunks.contains_key(&key).unwrap(), "the chunk on its way was pruned");
    s.runs.end(&meta.run_id, "me", RunEnd::Failed, Vec::new()).await.unwrap();
    s.runs.prune(0, usize::MAX).await.unwrap();
    assert!(!chunks.contains_key(&key).unwrap(), "an ended run's chunks go");
}
