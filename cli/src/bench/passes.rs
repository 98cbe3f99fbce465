//! `--repeat N`: whole passes of the bench, each figure then the median of
//! the passes' medians, with the spread between the passes kept beside the
//! spread within them.

use super::report::Figure;

/// One figure from the same figure of every pass (in the first pass's
/// order): the median of the medians, the least min and the largest max,
/// the ratios' medians, and `pass_spread`, the passes' medians' (max -
/// min) over their median. One pass is returned as it is.
pub fn merge(passes: Vec<Vec<Figure>>) -> Vec<Figure> {
    let mut passes = passes.into_iter();
    let Some(first) = passes.next() else {
        return Vec::new();
    };
    let rest: Vec<Vec<Figure>> = passes.collect();
    if rest.is_empty() {
        return first;
    }
    first
        .into_iter()
        .map(|f| {
            let same: Vec<&Figure> = rest
                .iter()
                .filter_map(|p| {
                    p.iter()
                        .find(|g| g.name == f.name && g.threads == f.threads)
                })
                .collect();
            let all: Vec<&Figure> = std::iter::once(&f).chain(same).collect();
            let medians = sorted(all.iter().map(|g| g.ns_median));
            let ns_median = median(&medians);
            let of = |pick: fn(&Figure) -> Option<f64>| {
                let v = sorted(all.iter().filter_map(|g| pick(g)));
                (!v.is_empty()).then(|| median(&v))
            };
            Figure {
                ns_min: all.iter().map(|g| g.ns_min).fold(f64::INFINITY, f64::min),
                ns_max: all.iter().map(|g| g.ns_max).fold(0.0, f64::max),
                per_second: f.per_second * f.ns_median / ns_median,
                vs_store: of(|g| g.vs_store),
                scaling: of(|g| g.scaling),
                cycles: of(|g| g.cycles),
                pass_spread: Some((medians[medians.len() - 1] - medians[0]) / ns_median),
                ns_median,
                ..f.clone()
            }
        })
        .collect()
}

fn sorted(v: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut v: Vec<f64> = v.collect();
    v.sort_by(f64::total_cmp);
    v
}

/// The middle value (the upper one of an even count, as the rounds' is).
fn median(sorted: &[f64]) -> f64 {
    sorted[sorted.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::name::Name;

    fn fig(ns: [f64; 3]) -> Figure {
        // 10^9 items in ns[1] x 1 s: ns per item as given.
        Figure::new(Name::StoreL2, "32-byte slot", 1, ns, 1_000_000_000)
    }

    #[test]
    fn the_median_of_the_medians_and_the_extremes_of_all() {
        let passes = vec![
            vec![fig([1.0, 2.0, 3.0])],
            vec![fig([0.5, 4.0, 9.0])],
            vec![fig([1.5, 3.0, 3.5])],
        ];
        let [m] = &merge(passes)[..] else {
            panic!("one figure")
        };
        assert_eq!((m.ns_min, m.ns_median, m.ns_max), (0.5, 3.0, 9.0));
        assert_eq!(m.pass_spread, Some((4.0 - 2.0) / 3.0));
        assert!((m.per_second - 1e9 / 3.0).abs() < 1e-3, "{}", m.per_second);
        // One pass is itself.
        let one = merge(vec![vec![fig([1.0, 2.0, 3.0])]]);
        assert_eq!(one[0].pass_spread, None);
    }
}
