//! Against npm typeid-js (1.2.0), run by node: it reads the TypeIDs we
//! write to the same prefix and UUID, refuses what we refuse, and its
//! TypeIDs parse with ours to the UUID it says.

use std::io::Write;

use kuuid::{TypeId, TypeIdPrefix};

#[test]
fn typeid_js_agrees_on_every_text() {
    let Some(dir) = crate::server::address("KUUID_NPM_DIR") else {
        return;
    };
    let mut texts: Vec<String> = Vec::new();
    for p in ["", "user", "pre_fix", "a", &"z".repeat(63)] {
        let prefix = TypeIdPrefix::new(p).unwrap();
        let mut ids = vec![TypeId::new(prefix, kuuid::Uuid7::MIN); 40];
        kuuid::fill_typeid(prefix, &mut ids);
        texts.extend(ids.iter().map(|id| id.to_string()));
        texts.push(TypeId::from_uuid_bytes(prefix, [0xff; 16]).to_string());
        texts.push(TypeId::from_uuid_bytes(prefix, [0; 16]).to_string());
    }
    // Every byte at a few places of one id: the bytes both must judge.
    let base = kuuid::typeid(TypeIdPrefix::new("user").unwrap()).to_string();
    for i in [0, 2, 3, 4, 5, 6, 20, 30] {
        for b in (0x21..0x7fu8).step_by(3) {
            let mut t = base.clone().into_bytes();
            t[i] = b;
            texts.push(String::from_utf8(t).unwrap());
        }
    }
    texts.extend([
        "_".into(),
        format!("{}_{}", "a".repeat(64), &base[5..]),
        format!("_{}", &base[5..]),
    ]);
    let script = r#"
        const t = require('typeid-js');
        let input = '';
        process.stdin.on('data', d => input += d);
        process.stdin.on('end', () => {
            for (const s of input.trim().split('\n')) {
                let out;
                try { const id = t.TypeID.fromString(s); out = id.getType() + ' ' + id.toUUID(); }
                catch (e) { out = 'refused'; }
                console.log(s + ' ' + out);
            }
            for (let i = 0; i < 100; i++) { const id = t.typeid('thing'); console.log('minted ' + id.toString() + ' ' + id.toUUID()); }
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
    let hex = |b: &[u8; 16]| -> String { b.iter().map(|x| format!("{x:02x}")).collect() };
    let (mut same, mut refused, mut minted) = (0, 0, 0);
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let parts: Vec<&str> = line.split(' ').collect();
        if parts[0] == "minted" {
            let id: TypeId = parts[1].parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(hex(id.uuid_bytes()), parts[2].replace('-', ""), "{line}");
            assert!(id.uuid7().is_ok(), "{line}");
            minted += 1;
            continue;
        }
        let ours = TypeId::parse_bytes(parts[0].as_bytes());
        match (ours, parts[1]) {
            (Err(_), "refused") => refused += 1,
            (Ok(id), _) if parts.len() == 3 => {
                assert_eq!(id.prefix().as_str(), parts[1], "{line}");
                assert_eq!(hex(id.uuid_bytes()), parts[2].replace('-', ""), "{line}");
                same += 1;
            }
            // An empty prefix: typeid-js prints an empty type.
            (Ok(id), uuid) if parts.len() == 2 || parts[1].is_empty() => {
                assert_eq!(id.prefix().as_str(), "", "{line}");
                let uuid = if parts.len() == 3 { parts[2] } else { uuid };
                assert_eq!(hex(id.uuid_bytes()), uuid.replace('-', ""), "{line}");
                same += 1;
            }
            (ours, _) => panic!("{line}: ours {ours:?}"),
        }
    }
    assert_eq!(same + refused, texts.len());
    assert_eq!(minted, 100);
    eprintln!(
        "typeid-js: {same} texts read alike, {refused} refused by both, {minted} of its ids read"
    );
}
