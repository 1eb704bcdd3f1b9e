//! Tests of the PostgreSQL backend on a real server (see
//! [`test_database`](super::test_database)).
