use super::*;

fn both<F: Fn() -> Worked, G: Fn() -> f64>(worked: F, value: G) -> Worked {
    let w = worked();
    assert_eq!(w.value().to_bits(), value().to_bits(), "{}", w.symbols());
    w
}

/// The ZeRO-1 ledger of a shard Ψ over a group D, written once.
fn zero_one<Q: Quantity>(psi: f64, group: f64) -> Q {
    let psi = Q::var("Ψ", psi, Show::Count);
    let group = Q::var("D", group, Show::Count);
    (Q::lit(2.0) + Q::var("g", 2.0, Show::Count)) * psi.clone() + Q::lit(12.0) * psi / group
}

#[test]
fn brackets_follow_how_tightly_terms_bind() {
    let w = both(
        || zero_one(27_781_427_952.0, 8.0),
        || zero_one(27_781_427_952.0, 8.0),
    );
    assert_eq!(w.symbols(), "(2 + g)·Ψ + 12·Ψ/D");
    assert_eq!(
        w.substituted(),
        "(2 + 2)·27,781,427,952 + 12·27,781,427,952/8"
    );
    let v = |s| Worked::var(s, 2.0, Show::Count);
    assert_eq!((v("a") / (v("b") * v("c"))).symbols(), "a/(b·c)");
    assert_eq!((v("a") * (v("b") / v("c"))).symbols(), "a·(b/c)");
    assert_eq!(((v("a") / v("b")) / v("c")).symbols(), "(a/b)/c");
    assert_eq!((v("a") - (v("b") + v("c"))).symbols(), "a − (b + c)");
    assert_eq!((v("a") - v("b") * v("c")).symbols(), "a − b·c");
    assert_eq!(v("a").max(v("b") - v("c")).symbols(), "max(a, b − c)");
}

#[test]
fn a_named_quantity_is_its_symbol_with_its_definition_beside() {
    fn tensor<Q: Quantity>() -> Q {
        let s_local = (Q::var("s", 4096.0, Show::Count) / Q::var("c", 2.0, Show::Count))
            .named("s'", Show::Count);
        (Q::lit(2.0) * s_local * Q::var("h", 5120.0, Show::Count)).named("x", Show::Bytes)
    }
    let w = both(
        || tensor::<Worked>() * Worked::lit(3.0),
        || tensor::<f64>() * 3.0,
    );
    assert_eq!(w.symbols(), "x·3");
    assert_eq!(w.substituted(), "21.0 MB·3");
    let defs: Vec<String> = w.definitions().iter().map(Definition::worked).collect();
    assert_eq!(
        defs,
        ["s' = 4,096/2 = 2,048", "x = 2·2,048·5,120 = 21.0 MB"]
    );
    assert_eq!(w.definitions()[1].in_symbols(), "x = 2·s'·h");
    // A definition met twice is listed once.
    let twice = tensor::<Worked>() + tensor::<Worked>();
    assert_eq!(twice.definitions().len(), 2);
}

#[test]
fn sums_and_rings() {
    let r: Worked = ring(count_of("t", 8.0));
    assert_eq!(
        (r.symbols(), r.substituted(), r.value()),
        ("(t − 1)/t", "(8 − 1)/8", 0.875)
    );
    let none: f64 = sum(std::iter::empty());
    assert_eq!(none, 0.0);
    let w: Worked = sum([Worked::lit(1.0), Worked::constant("4/3", 4.0 / 3.0)]);
    assert_eq!(w.symbols(), "1 + 4/3");
}

#[test]
fn values_are_written_by_their_kind() {
    assert_eq!(Show::Count.write(0.0), "0");
    assert_eq!(Show::Count.write(1234.56), "1,235");
    assert_eq!(Show::Count.write(2.5), "2.500");
    assert_eq!(Show::Bytes.write(55_562_855_904.0), "55.6 GB");
    assert_eq!(Show::Bandwidth.write(160e9), "160 GB/s");
    assert_eq!(Show::Seconds.write(0.0671), "67.1 ms");
    assert_eq!(Show::Percent.write(0.21875), "21.9%");
}
