//! Against npm `ulid` (3.0.2), run by node: its `ulidToUUID` gives the
//! bytes ours hold for the same text, `decodeTime` the same time, and it
//! refuses the texts ours refuses (aliases, a first character above `7`,
//! wrong lengths); ids it mints parse with ours, in its time.

use std::io::Write;

use kuuid::Ulid;

#[test]
fn npm_ulid_reads_our_texts_and_we_read_its_ids() {
    let Some(dir) = crate::server::address("KUUID_NPM_DIR") else {
        return;
    };
    let mut texts: Vec<String> = Vec::new();
    let mut ids = vec![Ulid::MIN; 300];
    kuuid::fill_ulid(&mut ids);
    ids.extend([Ulid::MIN, Ulid::MAX, kuuid::ulid_at(1u64).unwrap()]);
    texts.extend(ids.iter().map(|id| id.to_string()));
    texts.extend(ids.iter().take(20).map(|id| id.to_string().to_lowercase()));
    // Texts ours refuses: every alias and a few bytes at a few places, a
    // first character above 7, wrong lengths.
    let base = ids[0].to_string();
    for (i, b) in [
        (25, 'I'),
        (3, 'L'),
        (9, 'o'),
        (12, 'U'),
        (0, '8'),
        (0, 'Z'),
        (5, '-'),
    ] {
        let mut t: Vec<char> = base.chars().collect();
        t[i] = b;
        texts.push(t.into_iter().collect());
    }
    texts.push(base[..25].to_owned());
    texts.push(format!("{base}0"));
    let script = r#"
        const u = require('ulid');
        let input = '';
        process.stdin.on('data', d => input += d);
        process.stdin.on('end', () => {
            for (const t of input.trim().split('\n')) {
                let out;
                try { out = u.ulidToUUID(t) + ' ' + u.decodeTime(t); } catch (e) { out = 'refused'; }
                console.log(t + ' ' + out);
            }
            const m = u.monotonicFactory();
            for (let i = 0; i < 200; i++) console.log('minted ' + m() + ' ' + Date.now());
        });
    "#;
    let node_path = std::path::Path::new(&dir).join("node_modules");
    let Some(mut child) = crate::server::node(&["-e", script], Some(&node_path)) else {
        return;
    };
    let list: String = texts.iter().map(|t| format!("{t}\n")).collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(list.as_bytes())
        .unwrap();
    let out = crate::child::output(child);
    assert!(out.status.success(), "node failed: {:?}", out.status);
    let (mut same, mut refused, mut minted) = (0, 0, 0);
    let mut last: Option<Ulid> = None;
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let parts: Vec<&str> = line.split(' ').collect();
        if parts[0] == "minted" {
            let id: Ulid = parts[1].parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            let now: u64 = parts[2].parse().unwrap();
            // Minted just before Date.now() was read.
            assert!(id.timestamp().as_millis() <= now, "{line}");
            assert!(
                last.is_none_or(|l| l < id),
                "npm's monotonic ids out of order: {line}"
            );
            last = Some(id);
            minted += 1;
            continue;
        }
        let ours = Ulid::parse_bytes(parts[0].as_bytes());
        match (ours, parts[1]) {
            (Err(_), "refused") => refused += 1,
            (Ok(id), uuid) => {
                let hex: String = id.as_bytes().iter().map(|b| format!("{b:02X}")).collect();
                assert_eq!(uuid.replace('-', ""), hex, "{line}");
                assert_eq!(
                    parts[2].parse::<u64>().unwrap(),
                    id.timestamp().as_millis(),
                    "{line}"
                );
                same += 1;
            }
            (Err(e), _) => panic!("{line}: npm reads it, ours refuses: {e}"),
        }
    }
    assert_eq!(same + refused, texts.len());
    assert_eq!(refused, 9);
    assert_eq!(minted, 200);
    eprintln!(
        "npm ulid: {same} texts read alike, {refused} refused by both, {minted} of its ids read"
    );
}
