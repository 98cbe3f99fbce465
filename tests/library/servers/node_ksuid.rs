//! Against npm ksuid (3.0.0), run by node: it reads the KSUIDs we write
//! to the same 20 bytes, and ids it mints parse with ours to its bytes and
//! time. npm ksuid does not check characters: it reads some texts ours
//! refuses (counted, each a byte outside base62).

use std::io::Write;

use kuuid::Ksuid;

#[test]
fn npm_ksuid_reads_our_texts_and_we_read_its_ids() {
    let Some(dir) = crate::server::address("KUUID_NPM_DIR") else {
        return;
    };
    let mut ids = vec![Ksuid::MIN; 300];
    kuuid::fill_ksuid(&mut ids);
    ids.extend([
        Ksuid::MIN,
        Ksuid::MAX,
        kuuid::ksuid_at("2014-05-13T16:53:20Z").unwrap(),
    ]);
    let mut texts: Vec<String> = ids.iter().map(|id| id.to_string()).collect();
    let base = ids[0].to_string();
    for (i, c) in [(26, '-'), (0, 'z'), (5, '_'), (13, '~')] {
        let mut t: Vec<char> = base.chars().collect();
        t[i] = c;
        texts.push(t.into_iter().collect());
    }
    texts.extend([
        "aWgEPTl1tmebfsQzFP4bxwgy80W".to_owned(),
        base[..26].to_owned(),
    ]);
    let script = r#"
        const K = require('ksuid');
        let input = '';
        process.stdin.on('data', d => input += d);
        process.stdin.on('end', () => {
            for (const s of input.trim().split('\n')) {
                let out;
                try { out = K.parse(s).raw.toString('hex'); } catch (e) { out = 'refused'; }
                console.log(s + ' ' + out);
            }
            for (let i = 0; i < 200; i++) { const k = K.randomSync(); console.log('minted ' + k.string + ' ' + k.raw.toString('hex') + ' ' + k.date.getTime()); }
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
    let hex = |b: &[u8]| -> String { b.iter().map(|x| format!("{x:02x}")).collect() };
    let (mut same, mut refused, mut npm_only, mut minted) = (0, 0, 0, 0);
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let parts: Vec<&str> = line.split(' ').collect();
        if parts[0] == "minted" {
            let id: Ksuid = parts[1].parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(hex(id.as_bytes()), parts[2], "{line}");
            assert_eq!(
                id.timestamp().as_millis(),
                parts[3].parse::<u64>().unwrap(),
                "{line}"
            );
            minted += 1;
            continue;
        }
        match (Ksuid::parse_bytes(parts[0].as_bytes()), parts[1]) {
            (Err(_), "refused") => refused += 1,
            (Ok(id), theirs) => {
                assert_eq!(hex(id.as_bytes()), theirs, "{line}");
                same += 1;
            }
            (Err(kuuid::KsuidParseError::InvalidByte { .. }), _) => npm_only += 1,
            (Err(e), _) => panic!("{line}: npm reads it, ours refuses: {e}"),
        }
    }
    assert_eq!(same + refused + npm_only, texts.len());
    assert_eq!(minted, 200);
    eprintln!(
        "npm ksuid: {same} texts read alike, {refused} refused by both, {npm_only} with a byte outside base62 npm reads anyway, {minted} of its ids read"
    );
}
