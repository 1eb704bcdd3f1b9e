//! Property tests over what guests send the host: console inspection, the
//! output channel and returned values, with arbitrary nested data (GA-4.1,
//! GA-4.4, GA-1.4). No input may panic the host or fail a
//! cell that only logs and returns data.

use codemode_runtime::CodeMode;
use codemode_tests::*;
use proptest::prelude::*;
use serde_json::Value;

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        // Integers JavaScript holds exactly, and floats that stay floats.
        any::<i32>().prop_map(Value::from),
        (-1e9f64..1e9).prop_filter("fractional", |f| f.fract() != 0.0).prop_map(Value::from),
        "\\PC{0,40}".prop_map(Value::String),
        "[\\x00-\\x1f\"\\\\<>%o%s%d]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("\\PC{0,8}", inner, 0..6).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn rt() -> (tokio::runtime::Runtime, CodeMode) {
    let tokio = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let rt = tokio.block_on(runtime());
    (tokio, rt)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn arbitrary_values_through_console_text_json_and_return_never_fail_the_cell(v in value(), w in value()) {
        thread_local! { static RT: (tokio::runtime::Runtime, CodeMode) = rt(); }
        // Through JSON.parse: a `__proto__` key stays data, as it would in
        // a value a tool returned.
        let (vt, wt) = (serde_json::to_string(&v.to_string()).unwrap(), serde_json::to_string(&w.to_string()).unwrap());
        let code = format!(
            "const v = JSON.parse({vt}); const w = JSON.parse({wt}); console.log(v, w); console.error('%o %s %d', v, w); \
             text(JSON.stringify(v)); json(w); return [v, w];"
        );
        let result = RT.with(|(tokio, rt)| tokio.block_on(exec(rt, &code)));
        let model: Value = serde_json::from_str(&result.to_model_json()).unwrap();
        prop_assert_eq!(&model["status"], "completed", "{}", model);
        prop_assert_eq!(&model["value"], &Value::Array(vec![v, w]));
    }
}
