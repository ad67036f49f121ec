//! Run-level values (bytes, QPS, milliseconds) in the Efficiency section: whole numbers without
//! decimals, others with up to four significant decimals, the report's minus sign (`−`).

/// `4096000`, `12.35`, `0.0012`, `−3.5`.
pub fn value(x: f64) -> String {
    let t = if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{:.0}", x.abs())
    } else if x.abs() >= 1e15 {
        // Past 15 digits, scientific: a value near 1e160 is one short cell, not 161 digits.
        format!("{:.4e}", x.abs())
    } else if x.abs() >= 100.0 {
        trim(format!("{:.1}", x.abs()))
    } else {
        let digits = (4 - x.abs().log10().floor() as i32).clamp(2, 12) as usize;
        trim(format!("{:.*}", digits - 1, x.abs()))
    };
    if x < 0.0 && t.bytes().any(|b| b.is_ascii_digit() && b != b'0') {
        format!("−{t}")
    } else {
        t
    }
}

/// A relative change as a signed percentage: `+25.0%`, `−4.2%`.
pub fn change_percent(share: f64) -> String {
    let t = format!("{:.1}%", 100.0 * share.abs());
    if t == "0.0%" {
        t
    } else if share < 0.0 {
        format!("−{t}")
    } else {
        format!("+{t}")
    }
}

fn trim(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_plainly() {
        assert_eq!(value(4096000.0), "4096000");
        assert_eq!(value(12.345), "12.35");
        assert_eq!(value(1234.56), "1234.6");
        assert_eq!(value(0.0012), "0.0012");
        assert_eq!(value(-3.5), "−3.5");
        assert_eq!(change_percent(0.25), "+25.0%");
        assert_eq!(change_percent(-0.0421), "−4.2%");
        assert_eq!(change_percent(0.0), "0.0%");
    }
}
