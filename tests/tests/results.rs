//! The results cache (GA-6.4–GA-6.6): save/load/delete, capacity, expiry,
//! automatic references.

use codemode_runtime::{CellResult, CodeMode, Exec, Limits};
use codemode_tests::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saved_results_load_as_detached_copies_and_delete_frees_them_ga_6_5() {
    let rt = runtime().await;
    let reply = rt.session("s").reply("r");
    let saved = reply.exec(Exec::code("return await results.save({rows: [1, 2, 3]})")).await.unwrap();
    let d = value(&saved).clone();
    assert_eq!(
        (d["bytes"].clone(), d["count"].clone(), d["previewTruncated"].clone()),
        (json!(16), json!(1), json!(false))
    );
    assert_eq!(d["preview"], json!("{\"rows\":[1,2,3]}"));
    let id = d["id"].as_str().unwrap().to_owned();
    assert!(id.starts_with("result_"));
    let code = format!(
        "const a = await results.load('{id}'); a.rows.push(4); const b = await results.load('{id}'); \
         const deleted = await results.delete('{id}'); let after; try {{ await results.load('{id}') }} catch (e) {{ after = e.message }} \
         return [b, deleted, after]"
    );
    let r = reply.exec(Exec::code(code)).await.unwrap();
    assert_eq!(value(&r)[0], json!({"rows": [1, 2, 3]}));
    assert_eq!(value(&r)[1], json!(true));
    assert!(value(&r)[2].as_str().unwrap().contains("was deleted"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_four_saves_fit_and_the_sixty_fifth_is_refused_until_one_is_deleted_ga_6_5() {
    let rt = runtime().await;
    let r = exec(&rt, "const ids = []; for (let i = 0; i < 64; i++) ids.push((await results.save(i)).id); \
        let refused; try { await results.save(64) } catch (e) { refused = e.message } \
        await results.delete(ids[0]); const again = await results.save(65); return [new Set(ids).size, refused, typeof again.id]").await;
    let v = value(&r);
    assert_eq!(v[0], json!(64));
    assert!(v[1].as_str().unwrap().contains("results capacity exceeded (64 references)"));
    assert_eq!(v[2], json!("string"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn byte_capacity_is_exact_at_the_utf8_boundary_ga_6_5() {
    let rt = runtime_with(Limits { results_max_bytes: 1024, ..Limits::default() }).await;
    let r = exec(&rt, "const d = await results.save('🦞'.repeat(255)); let refused; try { await results.save(123) } catch (e) { refused = e.message } \
        return [d.bytes, d.count, d.shape, d.previewTruncated, refused]").await;
    let v = value(&r);
    assert_eq!(v.as_array().unwrap()[..4], [json!(1022), json!(1), json!("string"), json!(true)]);
    assert!(v[4].as_str().unwrap().contains("results capacity exceeded"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_expire_with_their_reply_and_stay_in_their_scope_ga_6_5() {
    let rt = runtime().await;
    let first = rt.session("s").reply("r1");
    let d = first.exec(Exec::code("return await results.save([1])")).await.unwrap();
    let id = value(&d)["id"].as_str().unwrap().to_owned();
    let other = rt.session("s").reply("r2");
    let r = other
        .exec(Exec::code(format!("try {{ await results.load('{id}') }} catch (e) {{ return e.message }}")))
        .await
        .unwrap();
    assert_eq!(value(&r), &json!("Code Mode results belong to a different run or session."));
    first.end();
    let r = first
        .exec(Exec::code(format!("try {{ await results.load('{id}') }} catch (e) {{ return e.message }}")))
        .await
        .unwrap();
    assert_eq!(value(&r), &json!("Code Mode result is unavailable or expired; fetch fresh data if needed."));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_180_row_final_array_comes_back_as_a_reference_that_loads_in_the_next_cell_ga_6_6() {
    let rt = runtime_with(Limits { max_output_bytes: 1024, ..Limits::default() }).await;
    let reply = rt.session("s").reply("r");
    let code = "text('progress'.repeat(500)); await yield_control(); \
        return Array.from({length: 180}, (_, i) => ({id: i, amount: 4, note: 'invoice row ' + i}))";
    let mut r = reply.exec(Exec::code(code)).await.unwrap();
    while let Some(run_id) = r.run_id().map(str::to_owned) {
        r = reply.wait(&run_id).await.unwrap();
    }
    let v = value(&r);
    assert_eq!(v["truncated"], json!(true));
    assert_eq!(v["reference"]["count"], json!(180));
    assert!(v["guidance"].as_str().unwrap().contains("results.load(reference.id)"));
    let rows = (0..180).map(|i| json!({"id": i, "amount": 4, "note": format!("invoice row {i}")})).collect::<Vec<_>>();
    assert_eq!(v["reference"]["bytes"], json!(serde_json::to_string(&rows).unwrap().len()));
    let id = v["reference"]["id"].as_str().unwrap();
    let sum = reply
        .exec(Exec::code(format!(
            "const rows = await results.load('{id}'); return rows.reduce((s, r) => s + r.amount, 0)"
        )))
        .await
        .unwrap();
    assert_eq!(value(&sum), &json!(720));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_safe_cells_have_no_results_and_say_so_in_the_marker() {
    let rt = runtime_with(Limits { max_output_bytes: 1024, ..Limits::default() }).await;
    let reply = rt.session("s").reply("r");
    let r = reply.exec(Exec::code("return Array.from({length: 500}, (_, i) => i)").restart_safe(true)).await.unwrap();
    assert!(value(&r)["guidance"].as_str().unwrap().contains("restart-safe"));
    // Saving is an effect a replay would repeat: it fails the cell, caught
    // or not (see replay_safe.rs).
    let r = reply
        .exec(Exec::code("try { await results.save(1) } catch (e) { return e.message }").restart_safe(true))
        .await
        .unwrap();
    let (code, message) = failure(&r);
    assert_eq!(code, codemode_runtime::ErrorCode::InvalidInput);
    assert!(message.contains("restartSafe"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_d_ts_is_listed_and_documents_the_contract_ga_2_3() {
    let rt = codemode_tests::builder().start().await.unwrap();
    let r = exec(&rt, "const list = await API.list(); const f = await API.read('results.d.ts'); \
        return [list.files.map(f => f.path), f.description, f.content.includes('declare const results'), f.bytes === new TextEncoder().encode(f.content).length]").await;
    assert_eq!(
        value(&r),
        &json!([["results.d.ts"], "Temporary JSON results shared across cells in the current agent run.", true, true])
    );
}

/// What the runtime's metrics say the results cache holds now.
fn held(rt: &CodeMode) -> (u64, u64) {
    let held = rt.metrics().results_held.expect("the in-memory cache reports what it holds");
    (held.entries, held.bytes)
}

/// Any request to the results cache from another reply: answered after
/// every request sent before it (one actor, in order), such as an end.
async fn settle(rt: &CodeMode) {
    let other = rt.session("other").reply("x");
    let r = other.exec(Exec::code("try { await results.load('result_0') } catch { return 0 }")).await.unwrap();
    assert_eq!(value(&r), &json!(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_save_explicit_or_automatic_is_counted_and_held_until_deleted_or_its_reply_ends_ga_6_5_ga_6_6() {
    let rt = runtime_with(Limits { max_output_bytes: 1024, ..Limits::default() }).await;
    let reply = rt.session("s").reply("r");
    assert_eq!(held(&rt), (0, 0));
    let saved = reply.exec(Exec::code("const d = await results.save([1, 2]); return [d.id, d.bytes]")).await.unwrap();
    let id = value(&saved)[0].as_str().unwrap().to_owned();
    assert_eq!(held(&rt), (1, 5));
    let big = reply.exec(Exec::code("return Array.from({length: 500}, (_, i) => i)")).await.unwrap();
    let auto = value(&big)["reference"]["bytes"].as_u64().unwrap();
    assert_eq!(held(&rt), (2, 5 + auto), "the automatic reference is held like a save");
    let m = rt.metrics();
    assert_eq!((m.results_saved, m.results_saved_bytes), (2, 5 + auto), "and counted like one");

    let deleted = reply.exec(Exec::code(format!("return await results.delete('{id}')"))).await.unwrap();
    assert_eq!(value(&deleted), &json!(true));
    assert_eq!(held(&rt), (1, auto));
    reply.end();
    settle(&rt).await;
    assert_eq!(held(&rt), (0, 0), "the reply's end frees the rest");
    assert_eq!(rt.metrics().results_saved, 2, "a counter: what was freed stays counted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cell_of_an_ended_reply_saves_nothing_and_a_new_exec_opens_the_reply_again_ga_6_5() {
    let rt = runtime_with(Limits { max_output_bytes: 1024, ..Limits::default() }).await;
    let reply = rt.session("s").reply("r");
    let code = "await yield_control(); \
        try { await results.save([1]); text('saved') } catch (e) { text(e.message) } \
        return Array.from({length: 500}, (_, i) => i)";
    let parked = reply.exec(Exec::code(code)).await.unwrap();
    let run_id = parked.run_id().expect("the cell parks").to_owned();
    reply.end();
    let done = reply.wait(&run_id).await.unwrap();
    let CellResult::Completed { value: marker, output, .. } = &done else { panic!("{}", done.to_model_json()) };
    assert!(format!("{output:?}").contains("the reply ended, so nothing more can be saved in it"), "{output:?}");
    assert_eq!(marker["truncated"], json!(true));
    assert!(marker.get("reference").is_none(), "{marker}");
    let guidance = marker["guidance"].as_str().unwrap();
    assert!(guidance.contains("Not retained: this cell's reply has ended"), "{guidance}");
    assert_eq!(held(&rt), (0, 0), "nothing is kept that no end would free");
    assert_eq!(rt.metrics().results_saved, 0);

    // The host uses the reply again: a new cell saves, and the next end
    // frees it.
    let again = reply.exec(Exec::code("return (await results.save([1])).bytes")).await.unwrap();
    assert_eq!(value(&again), &json!(3));
    assert_eq!(held(&rt), (1, 3));
    reply.end();
    settle(&rt).await;
    assert_eq!(held(&rt), (0, 0));
}
