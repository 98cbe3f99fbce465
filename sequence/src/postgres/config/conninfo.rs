//! libpq's connection string, in either form (`key=value` pairs, or a
//! `postgresql://` URL), read into checked key/value pairs: every key is
//! one libpq knows. An error names the key (or the byte) at fault and
//! never quotes a value: a password, a mistyped key's value, or a
//! password's fragment a misplaced space or `/` set apart, would otherwise
//! reach a log.

/// Keys the driver reads, with libpq's meaning.
const DRIVER: &[&str] = &[
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "options",
    "application_name",
    "tcp_user_timeout",
    "keepalives",
    "keepalives_idle",
    "keepalives_interval",
    "keepalives_count",
    "target_session_attrs",
    "channel_binding",
    "load_balance_hosts",
];

/// Keys read here rather than by the driver.
const OURS: &[&str] = &[
    "connect_timeout",
    "fallback_application_name",
    "sslmode",
    "sslrootcert",
    "sslcert",
    "sslkey",
    "passfile",
];

/// libpq's other keys: known, not supported.
const UNSUPPORTED: &[&str] = &[
    "service",
    "require_auth",
    "client_encoding",
    "replication",
    "gssencmode",
    "requiressl",
    "sslcompression",
    "sslpassword",
    "sslcertmode",
    "sslcrl",
    "sslcrldir",
    "sslsni",
    "sslnegotiation",
    "requirepeer",
    "ssl_min_protocol_version",
    "ssl_max_protocol_version",
    "krbsrvname",
    "gsslib",
    "gssdelegation",
];

/// How to pass a server setting, for the unknown-key error.
const SERVER_SETTING_HINT: &str = "a server setting goes in options: options='-c lock_timeout=5s' \
     (in a URL: ?options=-c%20lock_timeout%3D5s)";

/// The pairs of `text`, in order, each key one libpq knows and this client
/// reads (a later pair overrides an earlier one, as in libpq).
pub(super) fn pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    let raw = if text.starts_with("postgres://") || text.starts_with("postgresql://") {
        url_pairs(text)?
    } else {
        kv_pairs(text)?
    };
    for (i, (key, value)) in raw.iter().enumerate() {
        // A word after a password's value may be the password's own
        // second word (`password=hunter2 secret=x`, or `&` unescaped in a
        // URL): such a key is not named.
        let after_password = i > 0 && matches!(raw[i - 1].0.as_str(), "password" | "sslpassword");
        check(key, value, after_password)?;
    }
    Ok(raw)
}

/// Whether libpq knows `key` (supported here or not).
fn known(key: &str) -> bool {
    DRIVER.contains(&key) || OURS.contains(&key) || UNSUPPORTED.contains(&key)
}

/// `key` quoted for a message if it reads as a key's name (letters,
/// digits, `_`), else `None`: a token that is no name may be a fragment
/// of a value.
fn named(key: &str) -> Option<String> {
    let name_like = !key.is_empty()
        && key.len() <= 64
        && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    name_like.then(|| format!("{key:?}"))
}

/// Refuses a key this client does not read and a value it cannot hold.
/// The messages name the key, never the value.
fn check(key: &str, value: &str, after_password: bool) -> Result<(), String> {
    if UNSUPPORTED.contains(&key) {
        return Err(format!(
            "connection string: {key} (libpq's) is not supported here"
        ));
    }
    if !DRIVER.contains(&key) && !OURS.contains(&key) {
        if after_password {
            return Err(
                "connection string: an unknown key right after the password \
                 (a password with a space or `&` in it goes in single quotes, or %-escaped \
                 in a URL; neither the key nor any value shown)"
                    .to_owned(),
            );
        }
        let which = named(key).map_or_else(
            || "a key that is not a name".to_owned(),
            |k| format!("key {k}"),
        );
        return Err(format!(
            "connection string: unknown {which} (its value not shown); {SERVER_SETTING_HINT}"
        ));
    }
    let number = |max: u64| -> Result<(), String> {
        match value.trim().parse::<u64>() {
            Ok(n) if n <= max => Ok(()),
            _ => Err(format!(
                "connection string: {key} is not a whole number (0..={max})"
            )),
        }
    };
    match key {
        "port" => {
            let list: Vec<&str> = value.split(',').collect();
            for (i, p) in list.iter().enumerate() {
                if !p.is_empty() && p.parse::<u16>().is_err() {
                    let which = if list.len() == 1 {
                        "port".to_owned()
                    } else {
                        format!("port {} of the list", i + 1)
                    };
                    return Err(format!(
                        "connection string: {which} is not a port number (1..=65535; its value not shown)"
                    ));
                }
            }
            Ok(())
        }
        "connect_timeout" | "keepalives_idle" | "keepalives_interval" => number(u32::MAX.into()),
        "keepalives_count" | "tcp_user_timeout" => number(u32::MAX.into()),
        "keepalives" => number(1),
        _ => Ok(()),
    }
}

/// `key = value` pairs: values bare, or in single quotes with `\'` and
/// `\\` escapes.
fn kv_pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    let skip_space = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    loop {
        skip_space(&mut i);
        if i == b.len() {
            return Ok(out);
        }
        let start = i;
        while i < b.len() && b[i] != b'=' && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        let key = text[start..i].to_owned();
        skip_space(&mut i);
        if i == b.len() || b[i] != b'=' {
            // Not quoted unless libpq knows it: `password=two words`
            // leaves `words` here.
            let what = if known(&key) {
                format!("{key:?}")
            } else {
                format!("the text at byte {start}")
            };
            return Err(format!(
                "connection string: {what} has no value (key=value pairs, a value with spaces in single quotes, or a postgresql:// URL)"
            ));
        }
        i += 1;
        skip_space(&mut i);
        let mut value = String::new();
        if i < b.len() && b[i] == b'\'' {
            i += 1;
            loop {
                match b.get(i) {
                    None => {
                        let key = named(&key).unwrap_or_else(|| format!("at byte {start}"));
                        return Err(format!(
                            "connection string: the value of {key} has no closing quote"
                        ));
                    }
                    Some(b'\'') => {
                        i += 1;
                        break;
                    }
                    Some(b'\\') if i + 1 < b.len() => {
                        let c = text[i + 1..].chars().next().expect("in bounds");
                        value.push(c);
                        i += 1 + c.len_utf8();
                    }
                    Some(_) => {
                        let c = text[i..].chars().next().expect("in bounds");
                        value.push(c);
                        i += c.len_utf8();
                    }
                }
            }
        } else {
            let v0 = i;
            while i < b.len() && !b[i].is_ascii_whitespace() {
                i += 1;
            }
            value = text[v0..i].to_owned();
            // libpq skips blanks after `=`, so an empty value takes the
            // next pair as its value: `sslmode= password=x` sets sslmode
            // to `password=x`, which every message about sslmode (or the
            // host, the user, a file) would then show. Refused, naming
            // only the key.
            if let Some((k, _)) = value.split_once('=')
                && known(k)
            {
                let key = if known(&key) {
                    format!("{key:?}")
                } else {
                    "a key".to_owned()
                };
                return Err(format!(
                    "connection string: the value of {key} reads as another key's pair \
                     (an empty value is written key=''; a value with `=` in it goes in single \
                     quotes); its text not shown"
                ));
            }
        }
        out.push((key, value));
    }
}

/// A URL, `postgresql://[user[:password]@][host][:port][,...][/dbname][?key=value&...]`,
/// as the pairs it stands for (percent-escapes decoded).
fn url_pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    let rest = text
        .strip_prefix("postgresql://")
        .or_else(|| text.strip_prefix("postgres://"))
        .expect("checked by the caller");
    let (before_query, query) = match rest.split_once('?') {
        Some((a, q)) => (a, Some(q)),
        None => (rest, None),
    };
    let (authority, dbname) = match before_query.split_once('/') {
        Some((a, d)) => (a, Some(d)),
        None => (before_query, None),
    };
    // An `@` past the host part: a password's unescaped `/` or `?` moved
    // the user's part there (`postgresql://app:31337/pw@h` reads as host
    // `app`, port `31337`, a piece of the password), so the host, the
    // port and the database would show pieces of a password. Refused
    // whole; `@` in a value is written %40.
    if dbname.is_some_and(|d| d.contains('@')) || query.is_some_and(|q| q.contains('@')) {
        return Err(
            "connection string: an `@` after the URL's host part (a password's `/`, \
             `?` or `@` must be %-escaped: %2F, %3F, %40); nothing of the URL shown"
                .to_owned(),
        );
    }
    let mut out = Vec::new();
    let (userinfo, hosts) = match authority.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, authority),
    };
    if let Some(u) = userinfo {
        let (user, password) = match u.split_once(':') {
            Some((u, p)) => (u, Some(p)),
            None => (u, None),
        };
        if !user.is_empty() {
            out.push(("user".into(), decode(user, "the user")?));
        }
        if let Some(p) = password {
            out.push(("password".into(), decode(p, "the password")?));
        }
    }
    if !hosts.is_empty() {
        let (mut names, mut ports) = (Vec::new(), Vec::new());
        for h in hosts.split(',') {
            let (name, port) = split_host_port(h)?;
            names.push(decode(name, "a host")?);
            ports.push(port.to_owned());
        }
        if names.iter().any(|n| !n.is_empty()) {
            out.push(("host".into(), names.join(",")));
        }
        if ports.iter().any(|p| !p.is_empty()) {
            out.push(("port".into(), ports.join(",")));
        }
    }
    if let Some(d) = dbname.filter(|d| !d.is_empty()) {
        out.push(("dbname".into(), decode(d, "the database name")?));
    }
    for (n, pair) in query.into_iter().flat_map(|q| q.split('&')).enumerate() {
        if pair.is_empty() {
            continue;
        }
        let (k, v) = pair.split_once('=').ok_or_else(|| {
            let which = Some(pair)
                .filter(|p| known(p))
                .map_or_else(|| format!("number {}", n + 1), |p| format!("{p:?}"));
            format!("connection string: URL parameter {which} has no value (key=value)")
        })?;
        // libpq's URL spelling of two keys.
        let k = match k {
            "ssl" if v == "true" => {
                out.push(("sslmode".into(), "require".into()));
                continue;
            }
            k => decode(k, "a URL parameter's name")?,
        };
        let v = decode(v, "a URL parameter's value")?;
        out.push((k, v));
    }
    Ok(out)
}

/// `host[:port]`, the host perhaps an `[IPv6]` literal.
fn split_host_port(h: &str) -> Result<(&str, &str), String> {
    if let Some(rest) = h.strip_prefix('[') {
        let (addr, after) = rest
            .split_once(']')
            .ok_or("connection string: a host in the URL has no closing ]")?;
        return Ok(match after.strip_prefix(':') {
            Some(port) => (addr, port),
            None if after.is_empty() => (addr, ""),
            None => return Err("connection string: junk after ] in a host of the URL".into()),
        });
    }
    Ok(h.split_once(':').unwrap_or((h, "")))
}

/// `s` with its %-escapes decoded; an error names `what` it is, never
/// its text.
fn decode(s: &str, what: &str) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("connection string: bad %-escape in {what}"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("connection string: {what} is not UTF-8"))
}

/// The pairs for the driver, as one `key='value'` string it parses.
pub(super) fn driver_string(pairs: &[(String, String)]) -> String {
    let mut s = String::new();
    for (k, v) in pairs.iter().filter(|(k, _)| DRIVER.contains(&k.as_str())) {
        // libpq's keepalives_count is the driver's keepalives_retries.
        let k = if k == "keepalives_count" {
            "keepalives_retries"
        } else {
            k
        };
        let v = v.replace('\\', "\\\\").replace('\'', "\\'");
        s.push_str(&format!("{k}='{v}' "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(p: Vec<(String, String)>) -> Vec<(&'static str, String)> {
        p.into_iter().map(|(k, v)| (&*k.leak(), v)).collect()
    }

    fn sorted(p: Vec<(String, String)>) -> Vec<(&'static str, String)> {
        let mut p = map(p);
        p.sort();
        p
    }

    #[test]
    fn both_forms_give_the_same_pairs() {
        let kv =
            pairs("host=db port=6543 user=u password='p w' dbname=d options='-c lock_timeout=1s'")
                .unwrap();
        let url = pairs("postgresql://u:p%20w@db:6543/d?options=-c%20lock_timeout%3D1s").unwrap();
        assert_eq!(sorted(kv), sorted(url));
    }

    #[test]
    fn urls_with_several_hosts_ipv6_and_sockets() {
        let p = map(pairs("postgres://[::1]:1,h2:2/x").unwrap());
        assert_eq!(
            p,
            [
                ("host", "::1,h2".to_owned()),
                ("port", "1,2".to_owned()),
                ("dbname", "x".to_owned())
            ]
        );
        let p = map(pairs("postgresql://%2Fvar%2Frun%2Fpostgresql/app").unwrap());
        assert_eq!(p[0], ("host", "/var/run/postgresql".to_owned()));
    }

    #[test]
    fn errors_name_the_key_not_the_value() {
        let e = pairs("postgresql://h/d?lock_timeout=1s").unwrap_err();
        assert!(e.contains("\"lock_timeout\"") && !e.contains("1s"), "{e}");
        assert!(e.contains("options='-c lock_timeout=5s'"), "{e}");
        let e = pairs("host=h lock_timeout=1s").unwrap_err();
        assert!(e.contains("unknown key \"lock_timeout\""), "{e}");
        let e = pairs("postgresql://h:notaport/d").unwrap_err();
        assert!(
            e.contains("string: port is not a port number") && !e.contains("notaport"),
            "{e}"
        );
        let e = pairs("host=h port=5432,99999").unwrap_err();
        assert!(
            e.contains("port 2 of the list ") && !e.contains("99999"),
            "{e}"
        );
        let e = pairs("host=h keepalives=yes").unwrap_err();
        assert!(e.contains("keepalives is not") && !e.contains("yes"), "{e}");
        let e = pairs("host=h service=prod").unwrap_err();
        assert!(e.contains("service (libpq's) is not supported"), "{e}");
        let e = pairs("host=h dbname").unwrap_err();
        assert!(e.contains("\"dbname\" has no value"), "{e}");
        let e = pairs("host=h password=two words").unwrap_err();
        assert!(e.contains("text at byte 20 has no value"), "{e}");
    }

    /// An empty value takes the next pair as its value (libpq's grammar):
    /// refused, naming only the key (issue 63, item 1).
    #[test]
    fn an_empty_value_before_a_pair_is_refused_unquoted() {
        for key in DRIVER.iter().chain(OURS) {
            for next in ["password", "sslpassword", "user"] {
                let text = format!("{key}= {next}=hunter2secret");
                let e = pairs(&text).unwrap_err();
                assert!(
                    e.contains(&format!("value of {key:?} reads as")) && !e.contains("hunter2"),
                    "{text}: {e}"
                );
            }
        }
        // Quoted, the same text is a value; an empty quoted value is empty.
        let p = map(pairs("password='user=x' sslmode='' host=h").unwrap());
        assert_eq!(p[0], ("password", "user=x".to_owned()));
        assert_eq!(p[1], ("sslmode", String::new()));
        // A bare `=` in a value that reads as no key is a value.
        let p = map(pairs("options=-csearch_path=app").unwrap());
        assert_eq!(p[0], ("options", "-csearch_path=app".to_owned()));
    }

    /// Pieces of a password set apart by a space, `&`, `/` or `?` are
    /// never named (issue 63, item 2).
    #[test]
    fn pieces_of_a_password_are_not_named() {
        for text in [
            "host=h password=hunter2 secret=x",
            "postgresql://u@h/d?password=hunter2&secret=x",
            "postgresql://app:31337/pw@h",
            "postgresql://u:hunter2/sec@h/d",
            "postgresql://u:hunter2?sec@h/d",
        ] {
            let e = pairs(text).unwrap_err();
            for piece in ["hunter2", "secret", "31337", "sec", "app", "pw"] {
                assert!(!e.contains(piece), "{text}: {e}");
            }
        }
        // An unknown key after any other value is named.
        let e = pairs("user=u secret=x").unwrap_err();
        assert!(e.contains("unknown key \"secret\""), "{e}");
    }

    #[test]
    fn the_driver_string_quotes_every_value() {
        let p = pairs(r"user='o\'brien' password='a\\b' sslmode=require").unwrap();
        let s = driver_string(&p);
        assert_eq!(s, r"user='o\'brien' password='a\\b' ");
        let c: tokio_postgres::Config = s.parse().unwrap();
        assert_eq!(c.get_user(), Some("o'brien"));
        assert_eq!(c.get_password(), Some(&br"a\b"[..]));
    }
}
